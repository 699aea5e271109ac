package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// A stale row drifts since the latest release's publication: the DRIFTING
// column (wide), driftSince in JSON and --sort drift-age all say so; a stale
// row whose publication time is unknown shows "?" and null, and sorts last.
func TestStaleSinceInListOutput(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	build := func(name string, published time.Time) *model.AppView {
		app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: name}, Kind: "App", Role: "api",
			ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: "v1.0.0", Phase: "Running", CreatedAt: now.Add(-time.Hour)}
		one := int32(1)
		wl := &model.Workload{Kind: model.KindDeployment, Name: name, OwnedByApp: true, Generation: 1, ObservedGeneration: 1,
			Replicas: &one, ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
			Containers: []model.Container{{Name: name, Image: "ghcr.io/hanzoai/" + name + ":v1.0.0"}}}
		rel := model.Release{State: model.ReleaseFound, LatestTag: "v1.1.0", LatestPublished: published, URL: "u", Assets: 1, CheckedAt: now}
		v := model.Build(app, wl, rel, now)
		return &v
	}
	rows := []*model.AppView{
		build("a-recent", now.Add(-2*time.Hour)),
		build("b-unknown", time.Time{}),
		build("c-old", now.Add(-50*time.Hour)),
	}
	sorted := query.Select(rows, query.Query{}, query.SortDriftAge)
	var order []string
	for _, r := range sorted {
		order = append(order, r.App)
	}
	if strings.Join(order, ",") != "c-old,a-recent,b-unknown" {
		t.Errorf("--sort drift-age: %v, want c-old,a-recent,b-unknown", order)
	}
	var table bytes.Buffer
	if err := writeTable(&table, sorted, true, now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"50h0m0s", "2h0m0s"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("DRIFTING column lacks %q:\n%s", want, table.String())
		}
	}
	var js bytes.Buffer
	if err := writeJSON(&js, newListOutput(sorted)); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Apps []struct {
			App        string     `json:"app"`
			DriftSince *time.Time `json:"driftSince"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	for _, a := range out.Apps {
		switch {
		case a.App == "c-old" && (a.DriftSince == nil || !a.DriftSince.Equal(now.Add(-50*time.Hour))):
			t.Errorf("old: driftSince %v, want the publication time", a.DriftSince)
		case a.App == "b-unknown" && a.DriftSince != nil:
			t.Errorf("unknown: driftSince %v, want null", a.DriftSince)
		}
	}
}
