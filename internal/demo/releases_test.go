package demo

import (
	"strings"
	"testing"
)

// TestHealthyReleasesWaitOnNothing: with HealthyReleases (the screenshots'
// demo) every repo is read, with a token: no row waits on a release check
// and the header has nothing to say of the reader. Without it the demo's
// failing repo makes the reader say its checks fail, and when they are
// tried again.
func TestHealthyReleasesWaitOnNothing(t *testing.T) {
	_, snap := startDemo(t, Options{Seed: 1, Speed: 1, HealthyReleases: true})
	if n := snap.Summary.WaitingOnRelease; n != 0 {
		t.Errorf("%d rows wait on release checks with a healthy reader", n)
	}
	for _, r := range snap.Rows() {
		if r.Release.Unknown() {
			t.Errorf("%s: release %s (%s) with a healthy reader", r.Key(), r.Release.State, r.Release.Detail)
		}
	}
	if rc := snap.Releases; rc.Anonymous || !rc.LimitedUntil.IsZero() || rc.Failing != "" || rc.Starved {
		t.Errorf("a healthy reader's checks: %+v", rc)
	}

	d, _ := startDemo(t, Options{Seed: 1, Speed: 1})
	rc := d.rel.Checks()
	if rc.FailingChecks != 1 || !strings.Contains(rc.Failing, "502") || !rc.NextTry.After(d.rel.now()) {
		t.Errorf("the demo's failing repo: %+v", rc)
	}
}
