package releasereader

import (
	"context"
	"strings"
	"testing"
)

// TestFailingChecksSayWhyAndWhen: with GitHub's name not resolving (a real
// lookup of a .invalid host), the reader's own state says its checks fail,
// why, how many, and when they are tried again, rather than leaving the rows
// to read as merely waiting; a healthy reader says nothing of the kind.
func TestFailingChecksSayWhyAndWhen(t *testing.T) {
	clock := newFakeClock()
	r := newTestReader(t, "https://api.github.invalid/", clock, nil)
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.0.0"}, {"ghcr.io/hanzoai/kms", "v1.0.0"}})
	r.refresh(context.Background())
	c := r.Checks()
	if c.FailingChecks != 2 || !strings.HasPrefix(c.Failing, "GitHub: ") || !strings.Contains(c.Failing, "api.github.invalid") ||
		strings.Contains(c.Failing, "/repos/") {
		t.Fatalf("after a pass that could not resolve GitHub: failing %d %q", c.FailingChecks, c.Failing)
	}
	if want := clock.Now().Add(errorRetry); !c.NextTry.Equal(want) {
		t.Errorf("next try %v, want %v (errorRetry after the failure)", c.NextTry, want)
	}
	if st := r.Status(); st.Failing != c.Failing || !st.NextTry.Equal(c.NextTry) {
		t.Errorf("Status disagrees with Checks: %+v", st)
	}

	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.0.0", assets: 1})
	healthy := newTestReader(t, srv.URL, clock, nil)
	healthy.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.0.0"}})
	healthy.refresh(context.Background())
	if c := healthy.Checks(); c.Failing != "" || c.FailingChecks != 0 || !c.NextTry.IsZero() {
		t.Errorf("a healthy reader says its checks fail: %+v", c)
	}
}
