package model

import (
	"testing"

	"github.com/hanzoai/driftboard/drift"
)

func TestWaitsOnRelease(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		state ReleaseState
		tag   string
		wait  bool
	}{
		{ReleaseFound, "v1.2.3", false},
		{ReleaseNone, "v1.2.3", false},
		{ReleaseOff, "v1.2.3", false},
		{ReleasePending, "v1.2.3", true},
		{ReleaseRateLimited, "v1.2.3", true},
		{ReleaseError, "v1.2.3", true},
		{ReleaseNotLooked, "v1.2.3", true},
		{ReleasePending, "", false}, // no declared tag: nothing to wait for
	} {
		a := baseApp()
		a.ImageTag = tc.tag
		v := Build(a, baseWorkload(), Release{State: tc.state}, t0)
		if got := v.WaitsOnRelease(); got != tc.wait {
			t.Errorf("%s with tag %q: WaitsOnRelease = %v, want %v", tc.state, tc.tag, got, tc.wait)
		}
	}
}

func TestStaleWordsSayWhichWay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ declared, latest, want string }{
		{"v1.2.0", "v1.10.0", "a newer release v1.10.0 exists; v1.2.0 is declared"},
		{"v1.3.0", "v1.2.9", "declared v1.3.0 is newer than the latest release v1.2.9: nothing to upgrade to (is v1.3.0 published, or marked latest?)"},
		{"v1.3.0", "18", "declared v1.3.0 ≠ latest release 18"},
	} {
		if got := StaleWords(tc.declared, tc.latest); got != tc.want {
			t.Errorf("StaleWords(%s, %s) = %q, want %q", tc.declared, tc.latest, got, tc.want)
		}
	}
	// The contract still flags both directions: ST means declared ≠ latest.
	flags := drift.ComputeDriftFlags(drift.Observed{DeclaredTag: "v1.3.0", RunningTag: "v1.3.0", LatestTag: "v1.2.9", ReleaseURL: "u", ReleaseAssets: 1})
	if len(flags) != 1 || flags[0].Kind != drift.DriftStale {
		t.Errorf("declared newer than latest: flags %v, want stale", flags)
	}
}
