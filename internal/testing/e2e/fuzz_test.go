package e2e

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// FuzzObjectToRow runs the whole object-to-row path on arbitrary bytes, as
// the API server would hand them over: JSON decode (the dynamic client's
// scheme), kube.DecodeApp, model.Build, the store, then a query over the
// row. Nothing may panic; a malformed field must show on the row.
// CI: go test -run '^$' -fuzz FuzzObjectToRow -fuzztime 20s ./internal/testing/e2e
func FuzzObjectToRow(f *testing.F) {
	f.Add(`{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":"iam","namespace":"hanzo"},"spec":{"role":"iam","image":{"repository":"ghcr.io/hanzoai/iam","tag":"v1.2.3"},"replicas":2},"status":{"phase":"Running","readyReplicas":2}}`, "drift:red env:main")
	f.Add(`{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":"x","namespace":"tenant-acme"},"spec":{"image":"ghcr.io/x:v1","replicas":"three"}}`, "tenant:acme")
	f.Add(`{"apiVersion":"hanzo.ai/v1","kind":"Service","metadata":{"name":"x","labels":{"a":1}},"status":{"conditions":"none","endpoints":[1]}}`, "-name:x sort:age")
	f.Add(`{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":"y"},"spec":{"replicas":1e30,"image":{"repository":"GHCR.io/Hanzo AI/x","tag":"v1 2"}}}`, `"quoted value" name:*y*`)
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, object, filter string) {
		u := &unstructured.Unstructured{}
		if err := runtime.DecodeInto(unstructured.UnstructuredJSONScheme, []byte(object), u); err != nil {
			return // not an object the API server could serve
		}
		app := wire.DecodeApp("fuzz", u.Object)
		var wl *model.Workload
		if len(object)%2 == 0 { // both with and without a workload
			wl = &model.Workload{Kind: model.KindDeployment, Name: app.Name, Replicas: app.Replicas,
				Containers: []model.Container{{Name: "c", Image: app.ImageRepository + ":" + app.ImageTag}}}
		}
		row := model.Build(app, wl, model.Release{State: model.ReleaseOff}, now)
		if row.App != app.Name || row.Namespace != app.Namespace || row.Cluster != "fuzz" {
			t.Fatalf("row %s/%s/%s for object %s/%s", row.Cluster, row.Namespace, row.App, app.Namespace, app.Name)
		}
		if len(app.DecodeErrors) > 0 && !row.HasProblem(model.ProblemMalformed) {
			t.Fatalf("decode errors %q but the row's problems %q do not say malformed", app.DecodeErrors, row.Problems)
		}
		s := store.New()
		s.Upsert(row)
		snap := s.Snapshot()
		if snap.Len() != 1 || snap.Summary.Total != 1 {
			t.Fatalf("store of one row: %d rows, total %d", snap.Len(), snap.Summary.Total)
		}
		if q, err := query.Parse(filter); err == nil {
			_ = query.Select(snap.Rows(), q, query.SortSeverity)
		}
	})
}
