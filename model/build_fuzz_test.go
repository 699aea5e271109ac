package model

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/hanzoai/driftboard/drift"
)

// FuzzBuild feeds arbitrary CR and workload strings through Build: it must
// never panic, never drop the app, and keep its verdict consistent.
func FuzzBuild(f *testing.F) {
	f.Add("hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", "ghcr.io/hanzoai/iam:v1.2.3", "v1.2.3", "u", 1, true, false)
	f.Add("tenant-x", "a", "sql", "", "", "", "", "", 0, false, true)
	f.Add("x", "b", "ingress", "Bad Repo", "v1 2", "img@sha256:zz", "latest", "", -3, true, true)
	f.Fuzz(func(t *testing.T, ns, name, role, repo, tag, image, latest, url string, assets int, withWL, off bool) {
		a := AppObject{Key: Key{Cluster: "c", Namespace: ns, Name: name}, Role: role, ImageRepository: repo, ImageTag: tag,
			Labels: map[string]string{}, Replicas: ptr(int32(assets))}
		var wl *Workload
		if withWL {
			wl = &Workload{Kind: KindDeployment, Name: name, Replicas: ptr(int32(assets)), ReadyReplicas: int32(assets / 2),
				Containers: []Container{{Name: "x", Image: image}},
				PodSets:    []PodSet{{Name: "p", Available: int32(assets), Containers: []Container{{Image: image}}}}}
		}
		rel := Release{State: ReleaseFound, LatestTag: latest, URL: url, Assets: assets}
		if off {
			rel.State = ReleaseOff
		}
		v := Build(a, wl, rel, t0)
		if v.App != name || v.Namespace != ns || v.Endpoints == nil || v.Drift.Flags == nil {
			t.Fatalf("row lost identity or nil slices: %+v", v)
		}
		if v.Drift.Severity != drift.DriftSeverityOf(v.Drift.Flags) {
			t.Fatalf("severity %s does not roll up %v", v.Drift.Severity, v.Drift.Flags)
		}
		if off && slices.ContainsFunc(v.Drift.Flags, func(f drift.DriftFlag) bool {
			return f.Kind == drift.DriftStale || f.Kind == drift.DriftNoRelease || f.Kind == drift.DriftZeroAssets
		}) {
			t.Fatalf("release off but release flags shown: %v", v.Drift.Flags)
		}
		if wl == nil && v.Health != HealthUnknown {
			t.Fatalf("no workload but health %q", v.Health)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	})
}
