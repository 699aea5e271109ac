package releasereader

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/model"
)

func TestOffSaysOffAndDoesNothing(t *testing.T) {
	r := Off()
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.0.0"}})
	if diff := cmp.Diff(model.Release{State: model.ReleaseOff, Detail: "release checks are off"}, r.Lookup("ghcr.io/hanzoai/iam", "v1.0.0")); diff != "" {
		t.Errorf("Off().Lookup (-want +got):\n%s", diff)
	}
	done := make(chan struct{})
	go func() { r.Run(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Off().Run did not return")
	}
	if !r.Status().Off {
		t.Error("Status().Off is false")
	}
}

func TestErrorStatesSayWhy(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.2.0", assets: 3})
	gh.set("hanzoai/kms", fakeRelease{tag: "v1.2.0", assets: 3})
	r := newTestReader(t, srv.URL, clock, nil)

	// What cannot be looked up is unknown, never "no release", and says why.
	for _, tc := range []struct{ repo, tag, detail string }{
		{"ghcr.io/hanzoai/tenant-acme/web", "v1.0.0", "no GitHub repository maps to ghcr.io/hanzoai/tenant-acme/web"},
		{"ghcr.io/hanzoai/iam", "", "no declared tag to look up"},
		{"nginx", "1.27", `"nginx" is not owner/repo`},
		{"ghcr.io/hanzo$ai/iam", "v1", `"hanzo$ai/iam" is not a GitHub owner/repo`},
	} {
		got := r.Lookup(tc.repo, tc.tag)
		if got.State != model.ReleaseNotLooked || !got.Unknown() || !strings.HasPrefix(got.Detail, tc.detail) {
			t.Errorf("Lookup(%q, %q) = %q %q, want not looked up %q", tc.repo, tc.tag, got.State, got.Detail, tc.detail)
		}
	}
	// An image on any registry is looked up by its owner/repo path, as is
	// the same path without a host.
	for _, repo := range []string{"docker.io/hanzoai/kms", "hanzoai/kms", "oci.hanzo.ai/hanzo/kms"} {
		r.Track([]RepoTag{{repo, "v1.2.0"}})
	}
	r.refresh(context.Background())
	for _, repo := range []string{"docker.io/hanzoai/kms", "hanzoai/kms", "oci.hanzo.ai/hanzo/kms"} {
		if got := r.Lookup(repo, "v1.2.0"); got.State != model.ReleaseFound || got.Assets != 3 {
			t.Errorf("Lookup(%q) = %+v, want the hanzoai/kms release", repo, got)
		}
	}

	// Never read and GitHub fails: error, with why.
	gh.refuse = "500"
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.2.0"}})
	r.refresh(context.Background())
	got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0")
	if got.State != model.ReleaseError || got.Detail != "GitHub answered 500: Server Error" {
		t.Errorf("failed first read: %q %q, want error with GitHub's answer", got.State, got.Detail)
	}
	// Failures are retried after a minute, not after the whole interval.
	clock.Advance(time.Minute)
	gh.refuse = ""
	r.refresh(context.Background())
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.State != model.ReleaseFound {
		t.Fatalf("a minute later: %q %q, want found", got.State, got.Detail)
	}

	// A known answer whose refresh fails keeps its facts and says so.
	clock.Advance(11 * time.Minute)
	gh.refuse = "500"
	r.refresh(context.Background())
	got = r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0")
	if got.State != model.ReleaseFound || got.Assets != 3 || !strings.Contains(got.Detail, "refresh failed: GitHub answered 500") {
		t.Errorf("failed refresh of a known answer: %+v", got)
	}

	// Rate-limited with a known but old answer: still found, and the detail says
	// the answer is held back and from when.
	gh.refuse = "primary"
	clock.Advance(time.Minute)
	r.refresh(context.Background())
	got = r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0")
	if got.State != model.ReleaseFound || !strings.Contains(got.Detail, "refresh rate-limited until 14:40, answer from 13:41") {
		t.Errorf("rate-limited known answer: %q %q", got.State, got.Detail)
	}
}

func TestRunRefreshesAndSignalsChanged(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.2.0", assets: 3})
	ticks := make(chan time.Time)
	r := newTestReader(t, srv.URL, clock, func(o *Options) {
		o.After = func(time.Duration) <-chan time.Time { return ticks }
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()

	// Lookup alone registers the pair and wakes the worker.
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.State != model.ReleasePending {
		t.Fatalf("first lookup: %q, want pending", got.State)
	}
	deadline := time.After(10 * time.Second)
	for r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0").State != model.ReleaseFound {
		select {
		case <-r.Changed():
		case <-deadline:
			t.Fatal("Run never found the release")
		}
	}
	// Track drops what the board no longer shows and adds what is new.
	gh.set("hanzoai/kms", fakeRelease{tag: "v0.1.0", assets: 1})
	r.Track([]RepoTag{{"ghcr.io/hanzoai/kms", "v0.1.0"}})
	for r.Lookup("ghcr.io/hanzoai/kms", "v0.1.0").State != model.ReleaseFound {
		select {
		case <-r.Changed():
		case <-deadline:
			t.Fatal("Run never read the newly tracked pair")
		}
	}
	cancel()
	<-done
	clock.Advance(time.Hour)
	before, _, _ := gh.counts()
	r.Track([]RepoTag{{"ghcr.io/hanzoai/kms", "v0.1.0"}})
	r.refresh(context.Background())
	after, _, _ := gh.counts()
	if after-before != 1 {
		t.Errorf("refresh checked %d things, want 1: the untracked iam pair must be dropped", after-before)
	}
}

func TestPairs(t *testing.T) {
	rows := []*model.AppView{
		{Registry: "ghcr.io/hanzoai/iam", Repo: "hanzoai/iam", DeclaredTag: "v1.2.0"},
		{Repo: "hanzoai/kms", DeclaredTag: "v0.1.0"},
		{DeclaredTag: "v1"}, // no image at all: nothing to track
	}
	want := []RepoTag{{"ghcr.io/hanzoai/iam", "v1.2.0"}, {"hanzoai/kms", "v0.1.0"}}
	if diff := cmp.Diff(want, Pairs(rows)); diff != "" {
		t.Errorf("Pairs (-want +got):\n%s", diff)
	}
}

// countingTransport measures how many requests are in flight at once.
type countingTransport struct {
	next          http.RoundTripper
	mu            sync.Mutex
	inFlight, max int
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.inFlight++
	c.max = max(c.max, c.inFlight)
	c.mu.Unlock()
	time.Sleep(20 * time.Millisecond) // long enough for the others to pile up
	defer func() {
		c.mu.Lock()
		c.inFlight--
		c.mu.Unlock()
	}()
	return c.next.RoundTrip(req)
}

func TestConcurrencyLimit(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	ct := &countingTransport{next: http.DefaultTransport}
	r := newTestReader(t, srv.URL, clock, func(o *Options) {
		o.Concurrency = 3
		o.HTTPClient = &http.Client{Transport: ct}
	})
	trackN(r, gh, 10)
	r.refresh(context.Background())
	if req, _, _ := gh.counts(); req != 10 {
		t.Fatalf("%d requests, want 10", req)
	}
	if ct.max > 3 || ct.max < 2 {
		t.Errorf("at most %d requests in flight, want 2..3 (limit 3, and parallel)", ct.max)
	}
}
