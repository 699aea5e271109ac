package releasereader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

func trackN(r *Reader, gh *fakeGitHub, n int) []RepoTag {
	var pairs []RepoTag
	for i := range n {
		repo := fmt.Sprintf("hanzoai/svc%02d", i)
		gh.set(repo, fakeRelease{tag: "v1.0.0", assets: 1})
		pairs = append(pairs, RepoTag{Repo: "ghcr.io/" + repo, Tag: "v1.0.0"})
	}
	r.Track(pairs)
	return pairs
}

// Anonymous: the reader stops when X-RateLimit-Remaining reaches 0 and does
// not send the request GitHub would refuse.
func TestStopsAtRemainingZero(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.limit, gh.remaining = 60, 3
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Token, o.NoToken, o.Concurrency = "", true, 1 })
	pairs := trackN(r, gh, 4) // 4 releases lists, 3 allowed
	r.refresh(context.Background())
	if req, _, _ := gh.counts(); req != 3 {
		t.Fatalf("sent %d requests with 3 remaining, want exactly 3", req)
	}
	st := r.Status()
	if st.Warning != AnonymousWarning || !st.RateLimitedUntil.Equal(gh.reset) || st.Remaining != 0 {
		t.Errorf("status %+v, want the anonymous warning, rate-limited until %v, 0 remaining", st, gh.reset)
	}
	var limited int
	for _, p := range pairs {
		got := r.Lookup(p.Repo, p.Tag)
		if got.State == model.ReleaseRateLimited {
			limited++
			if got.Detail != "until 14:40" {
				t.Errorf("rate-limited detail %q, want %q", got.Detail, "until 14:40")
			}
		}
	}
	if limited == 0 {
		t.Error("no row says rate-limited although most were never read")
	}

	// Until the reset nothing is sent, however often the worker wakes.
	clock.Advance(30 * time.Minute)
	if next := r.refresh(context.Background()); !next.Equal(gh.reset) {
		t.Errorf("next wake %v, want the reset %v", next, gh.reset)
	}
	if req, _, _ := gh.counts(); req != 3 {
		t.Fatalf("sent %d requests before the reset, want still 3", req)
	}
	clock.Advance(31 * time.Minute)
	gh.mu.Lock()
	gh.remaining, gh.reset = 60, clock.Now().Add(time.Hour)
	gh.mu.Unlock()
	r.refresh(context.Background())
	// The 1 never read, and the 3 read an hour ago revalidated (304s: free
	// when authorized, charged when anonymous as here).
	if req, nm, charged := gh.counts(); req != 3+1+3 || nm != 3 || charged != 7 {
		t.Fatalf("after the reset: requests=%d 304s=%d charged=%d, want 7/3/7", req, nm, charged)
	}
	for _, p := range pairs {
		if got := r.Lookup(p.Repo, p.Tag); got.State != model.ReleaseFound {
			t.Errorf("%s after the reset: %q %q, want found", p.Repo, got.State, got.Detail)
		}
	}
}

// A 403 with X-RateLimit-Remaining: 0 blocks until X-RateLimit-Reset.
func TestPrimaryRateLimit403(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.refuse = "primary"
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Concurrency = 1 })
	trackN(r, gh, 5)
	r.refresh(context.Background())
	if req, _, _ := gh.counts(); req != 1 {
		t.Fatalf("kept sending after a primary rate limit: %d requests, want 1", req)
	}
	got := r.Lookup("ghcr.io/hanzoai/svc00", "v1.0.0")
	if got.State != model.ReleaseRateLimited || got.Detail != "until 14:40" {
		t.Errorf("row %+v, want rate-limited until 14:40", got)
	}
	if st := r.Status(); st.RateLimitReason != "primary rate limit" {
		t.Errorf("status reason %q", st.RateLimitReason)
	}
}

// Secondary limits (403 or 429, documented body) wait Retry-After seconds,
// or a minute, doubling, when GitHub names no time.
func TestSecondaryRateLimit(t *testing.T) {
	for _, tc := range []struct {
		refuse string
		wait   time.Duration
	}{
		{"secondary403", 120 * time.Second},
		{"secondary429", 90 * time.Second},
		{"secondary-no-retry", time.Minute},
	} {
		t.Run(tc.refuse, func(t *testing.T) {
			clock := newFakeClock()
			gh, srv := newFakeGitHub(t, clock)
			gh.refuse, gh.retryAfter = tc.refuse, int(tc.wait/time.Second)
			r := newTestReader(t, srv.URL, clock, nil)
			trackN(r, gh, 10)
			r.refresh(context.Background())
			first, _, _ := gh.counts()
			if first > 4 {
				t.Fatalf("%d requests after a secondary limit, want at most the 4 in flight", first)
			}
			st := r.Status()
			if want := clock.Now().Add(tc.wait); !st.RateLimitedUntil.Equal(want) || st.RateLimitReason != "secondary rate limit" {
				t.Fatalf("status %+v, want secondary rate limit until %v", st, want)
			}
			clock.Advance(tc.wait - time.Second)
			r.refresh(context.Background())
			if req, _, _ := gh.counts(); req != first {
				t.Fatalf("sent %d requests during the Retry-After, want none", req-first)
			}
			clock.Advance(time.Second)
			gh.mu.Lock()
			gh.refuse = ""
			gh.mu.Unlock()
			r.refresh(context.Background())
			if got := r.Lookup("ghcr.io/hanzoai/svc09", "v1.0.0"); got.State != model.ReleaseFound {
				t.Errorf("after the wait: %+v, want found", got)
			}
		})
	}
}

func TestSecondaryBackoffGrowsWithoutRetryAfter(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.refuse = "secondary-no-retry"
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Concurrency = 1 })
	trackN(r, gh, 1)
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute} {
		r.refresh(context.Background())
		st := r.Status()
		if got := st.RateLimitedUntil.Sub(clock.Now()); got != want {
			t.Fatalf("hit %d: waiting %v, want %v", i+1, got, want)
		}
		clock.Advance(want)
	}
}
