package model

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model/imageref"
)

// FuzzBuild feeds arbitrary CR and workload strings through Build: it must
// never panic, never drop the app, and keep its verdict consistent.
func FuzzBuild(f *testing.F) {
	f.Add("hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", "ghcr.io/hanzoai/iam:v1.2.3", "v1.2.3", "u", 1, true, uint8(0))
	f.Add("tenant-x", "a", "sql", "", "", "", "", "", 0, false, uint8(1))
	f.Add("x", "b", "ingress", "Bad Repo", "v1 2", "img@sha256:zz", "latest", "", -3, true, uint8(2))
	f.Add("hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", "ghcr.io/hanzoai/iam:v1.2.3", "v1.3.0", "", 0, true, uint8(3))
	states := []ReleaseState{ReleaseFound, ReleaseOff, ReleasePending, ReleaseNone, ReleaseRateLimited, ReleaseError, ReleaseNotLooked}
	f.Fuzz(func(t *testing.T, ns, name, role, repo, tag, image, latest, url string, assets int, withWL bool, st uint8) {
		a := AppObject{Key: Key{Cluster: "c", Namespace: ns, Name: name}, Role: role, ImageRepository: repo, ImageTag: tag,
			Labels: map[string]string{}, Replicas: ptr(int32(assets))}
		var wl *Workload
		if withWL {
			wl = &Workload{Kind: KindDeployment, Name: name, Replicas: ptr(int32(assets)), ReadyReplicas: int32(assets / 2),
				Containers: []Container{{Name: "x", Image: image}},
				PodSets:    []PodSet{{Name: "p", Available: int32(assets), Containers: []Container{{Image: image}}}}}
		}
		rel := Release{State: states[int(st)%len(states)], LatestTag: latest, URL: url, Assets: assets}
		v := Build(a, wl, rel, t0)
		if v.App != name || v.Namespace != ns || v.Endpoints == nil || v.Drift.Flags == nil {
			t.Fatalf("row lost identity or nil slices: %+v", v)
		}
		if v.Drift.Severity != drift.DriftSeverityOf(v.Drift.Flags) {
			t.Fatalf("severity %s does not roll up %v", v.Drift.Severity, v.Drift.Flags)
		}
		// Only checked releases feed the contract: unchecked ones show none
		// of the release flags; checked ones show exactly the contract's.
		releaseFlags := slices.ContainsFunc(v.Drift.Flags, func(f drift.DriftFlag) bool {
			return f.Kind == drift.DriftStale || f.Kind == drift.DriftNoRelease || f.Kind == drift.DriftZeroAssets
		})
		if !rel.Checked() && releaseFlags {
			t.Fatalf("release %s (unchecked) but release flags shown: %v", rel.State, v.Drift.Flags)
		}
		if rel.Checked() {
			if want := drift.ComputeDrift(drift.Observed{DeclaredTag: v.DeclaredTag, RunningTag: contractRunning(v.RunningTag),
				LatestTag: latest, ReleaseURL: url, ReleaseAssets: assets}); !slices.Equal(kindsOf(want), kindsOf(v.Drift)) {
				t.Fatalf("checked release: flags %v, contract says %v", kindsOf(v.Drift), kindsOf(want))
			}
		}
		if wl == nil && v.Health != HealthUnknown {
			t.Fatalf("no workload but health %q", v.Health)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	})
}

// contractRunning is the running tag the contract sees: a digest pins
// content and is no tag.
func contractRunning(tag string) string {
	if imageref.PinnedByDigest(tag) {
		return ""
	}
	return tag
}
