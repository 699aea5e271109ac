package releasereader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/hanzoai/driftboard/model"
)

// board150 is a 150-app board on 60 repos (30 with three declared tags, 30
// with two), 15 of the declared tags without a release; every repo has 12
// releases, so one releases list answers all of its tags.
func board150(gh *fakeGitHub) []RepoTag {
	var pairs []RepoTag
	missing := 0
	for i := range 60 {
		repo := fmt.Sprintf("hanzoai/svc%02d", i)
		var rels []fakeRelease
		for j := 11; j >= 0; j-- {
			rels = append(rels, fakeRelease{tag: fmt.Sprintf("v1.%d.0", j), assets: 2})
		}
		gh.set(repo, rels...)
		tags := 2
		if i < 30 {
			tags = 3
		}
		for j := range tags {
			tag := fmt.Sprintf("v1.%d.0", 9+j)
			if j == 0 && missing < 15 {
				missing++
				tag = "v9.0.0" // declared, never released
			}
			pairs = append(pairs, RepoTag{Repo: "ghcr.io/" + repo, Tag: tag})
		}
	}
	return pairs
}

// simulate runs the reader as Run does, on the fake clock, for d.
func simulate(r *Reader, clock *fakeClock, d time.Duration) {
	end := clock.Now().Add(d)
	for clock.Now().Before(end) {
		next := r.refresh(context.Background())
		wait := r.opts.Interval
		if !next.IsZero() {
			wait = max(next.Sub(clock.Now()), time.Second)
		}
		clock.Advance(min(wait, end.Sub(clock.Now())))
	}
}

// TestBudgetFor150AppBoard measures what a 150-app / 60-repo board costs
// GitHub per hour at the default 10-minute interval, with a token and
// anonymous, counted at the fake GitHub over three simulated hours.
func TestBudgetFor150AppBoard(t *testing.T) {
	t.Run("token", func(t *testing.T) {
		clock := newFakeClock()
		gh, srv := newFakeGitHub(t, clock)
		r := newTestReader(t, srv.URL, clock, nil)
		r.Track(board150(gh))
		r.refresh(context.Background())
		if req, _, charged := gh.counts(); req != 60 || charged != 60 {
			t.Fatalf("first refresh: %d requests (%d counted), want 60: one per repo", req, charged)
		}
		clock.Advance(10 * time.Minute)
		r.refresh(context.Background())
		if req, nm, charged := gh.counts(); req != 120 || nm != 60 || charged != 60 {
			t.Fatalf("second refresh, nothing changed: requests=%d 304s=%d counted=%d, want 120/60/60 (60 free 304s)", req, nm, charged)
		}
		clock.Advance(10 * time.Minute)
		s0, _, c0 := gh.counts()
		simulate(r, clock, 2*time.Hour)
		s1, _, c1 := gh.counts()
		t.Logf("150 apps / 60 repos, token: %d requests/hour, %d counted against the 5000/hour limit", (s1-s0)/2, (c1-c0)/2)
		if (s1-s0)/2 != 360 || c1 != c0 {
			t.Errorf("with a token: %d requests/hour (%d counted), want 360 (6 refreshes × 60 repos), none counted", (s1-s0)/2, c1-c0)
		}
		if st := r.Status(); st.Starved || st.RefreshEvery != 10*time.Minute {
			t.Errorf("with a token: %+v, want not starved, refresh every 10m", st)
		}
	})
	t.Run("anonymous", func(t *testing.T) {
		clock := newFakeClock()
		gh, srv := newFakeGitHub(t, clock)
		gh.limit, gh.remaining = 60, 60
		r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Token, o.NoToken = "", true })
		pairs := board150(gh)
		r.Track(pairs)
		simulate(r, clock, time.Hour)
		s0, _, c0 := gh.counts()
		simulate(r, clock, 2*time.Hour)
		s1, _, c1 := gh.counts()
		t.Logf("150 apps / 60 repos, anonymous: %d requests/hour, %d counted against the 60/hour limit", (s1-s0)/2, (c1-c0)/2)
		if (s1-s0)/2 > 60 || (s1-s0)/2 < 55 {
			t.Errorf("anonymous: %d requests/hour, want close to and at most 60", (s1-s0)/2)
		}
		for _, p := range pairs {
			if got := r.Lookup(p.Repo, p.Tag); !got.Checked() {
				t.Fatalf("anonymous: %s %s is %s: 60 repos fit the 60/hour budget", p.Repo, p.Tag, got.State)
			}
		}
		if st := r.Status(); !st.Starved || st.RefreshEvery < 50*time.Minute {
			t.Errorf("anonymous: %+v, want starved, refresh every hour or so", st)
		}
	})
}

// The interval stretches so that the budget left lasts until the reset: 12
// repos every 10 minutes would need 72 anonymous requests an hour; the
// reader spaces its passes and is never refused.
func TestIntervalAdaptsToTheBudgetLeft(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.limit, gh.remaining = 60, 60
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Token, o.NoToken = "", true })
	trackN(r, gh, 12)
	r.refresh(context.Background())
	// 48 left for the 60 minutes to the reset: a pass of 12 every 15 minutes.
	if st := r.Status(); !st.Starved || st.RefreshEvery != 15*time.Minute {
		t.Fatalf("after the first pass: %+v, want starved, every 15m", st)
	}
	if rc := r.Checks(); !rc.Starved || rc.RefreshSeconds != 900 || !rc.Anonymous {
		t.Errorf("checks for the header: %+v, want anonymous, starved, 900 s", rc)
	}
	end := clock.Now().Add(3 * time.Hour)
	for clock.Now().Before(end) {
		if st := r.Status(); !st.RateLimitedUntil.IsZero() {
			t.Fatalf("at %s the budget ran out (%s): the interval did not adapt", clock.Now().Format("15:04"), st.RateLimitReason)
		}
		simulate(r, clock, time.Minute)
	}
	if req, _, _ := gh.counts(); req > 3*60+12 {
		t.Errorf("%d requests in 3 hours, want at most 60 an hour", req)
	}
	if got := r.Lookup("ghcr.io/hanzoai/svc11", "v1.0.0"); got.State != model.ReleaseFound || clock.Now().Sub(got.CheckedAt) > 16*time.Minute {
		t.Errorf("after 3 hours: %+v, want found and re-read within the stretched interval", got)
	}
}

func TestInsecureRegistriesUsePlainHTTP(t *testing.T) {
	r := &Reader{opts: Options{InsecureRegistries: []string{"registry.internal:5000"}}}
	for image, want := range map[string]string{
		"registry.internal:5000/acme/api": "http",
		"registry.example.com/acme/api":   "https",
	} {
		ref, err := name.NewTag(image+":v1", r.nameOptions(image)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := ref.Context().Registry.Scheme(); got != want {
			t.Errorf("%s: scheme %s, want %s", image, got, want)
		}
	}
}
