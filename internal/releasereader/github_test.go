package releasereader

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/model"
)

// newTestReader builds a Reader against the fake GitHub with an injected
// clock, an explicit token and a cache file in a temp dir.
func newTestReader(t *testing.T, srvURL string, clock *fakeClock, mod func(*Options)) *Reader {
	t.Helper()
	o := Options{
		Token:     "ghp_test",
		GitHubURL: srvURL,
		CachePath: filepath.Join(t.TempDir(), "releases.json"),
		Now:       clock.Now,
		Location:  time.UTC,
		Getenv:    func(string) string { return "" },
	}
	if mod != nil {
		mod(&o)
	}
	r, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

func TestReleasesFoundNoneAndLatest(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.3.0", assets: 2}, fakeRelease{tag: "v1.2.0", assets: 3})
	gh.set("hanzoai/kms", fakeRelease{tag: "v0.9.0", assets: 0})
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track([]RepoTag{
		{Repo: "ghcr.io/hanzoai/iam", Tag: "v1.2.0"}, // found, 3 assets, latest v1.3.0
		{Repo: "hanzoai/iam", Tag: "v1.1.0"},         // bare owner/repo; no release for the tag
		{Repo: "ghcr.io/hanzoai/kms", Tag: "v0.9.0"}, // found with zero assets
		{Repo: "ghcr.io/hanzoai/gone", Tag: "v1.0.0"},
	})
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.State != model.ReleasePending {
		t.Fatalf("before the first read: state %q, want pending", got.State)
	}
	r.refresh(context.Background())

	checked := clock.Now()
	published := fakeEpoch.Add(30 * time.Minute) // the newest release's
	// The row's list: github.com's notes links are not this (Enterprise) GitHub's.
	iam := []model.ReleaseTag{{Tag: "v1.3.0", Published: published}, {Tag: "v1.2.0", Published: published.Add(-24 * time.Hour)}}
	want := map[RepoTag]model.Release{
		{"ghcr.io/hanzoai/iam", "v1.2.0"}: {State: model.ReleaseFound, LatestTag: "v1.3.0", LatestPublished: published, URL: "https://github.com/hanzoai/iam/releases/tag/v1.2.0", Assets: 3, CheckedAt: checked, Releases: iam},
		{"hanzoai/iam", "v1.1.0"}:         {State: model.ReleaseNone, LatestTag: "v1.3.0", LatestPublished: published, CheckedAt: checked, Releases: iam},
		{"ghcr.io/hanzoai/kms", "v0.9.0"}: {State: model.ReleaseFound, LatestTag: "v0.9.0", LatestPublished: published, URL: "https://github.com/hanzoai/kms/releases/tag/v0.9.0", CheckedAt: checked,
			Releases: []model.ReleaseTag{{Tag: "v0.9.0", Published: published}}},
		{"ghcr.io/hanzoai/gone", "v1.0.0"}: {State: model.ReleaseNone, CheckedAt: checked,
			Detail: "GitHub has no repository hanzoai/gone (or it is private to this token)"},
	}
	for p, w := range want {
		if diff := cmp.Diff(w, r.Lookup(p.Repo, p.Tag)); diff != "" {
			t.Errorf("Lookup(%s, %s) (-want +got):\n%s", p.Repo, p.Tag, diff)
		}
	}
	// One releases list per distinct repo (hanzoai/iam is one repo in two
	// spellings); every repo has under 100 releases, so no per-tag request.
	if req, _, _ := gh.counts(); req != 3 {
		t.Errorf("first read: %d requests, want 3 (one per repo)", req)
	}
	for p, n := range gh.paths {
		if !strings.HasSuffix(p, "/releases") || n != 1 {
			t.Errorf("%d requests to %s, want one releases list per repo and nothing else", n, p)
		}
	}
	if gh.auth != "Bearer ghp_test" {
		t.Errorf("Authorization header %q, want the token as Bearer", gh.auth)
	}
}

func TestETagsAndIntervalSaveRequests(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.2.0", assets: 3})
	gh.set("hanzoai/api", fakeRelease{tag: "v2.0.0", assets: 1})
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.2.0"}, {"ghcr.io/hanzoai/api", "v1.9.0"}})

	r.refresh(context.Background()) // 2 releases lists
	clock.Advance(5 * time.Minute)
	r.refresh(context.Background()) // answers younger than the interval: nothing sent
	req, nm, charged := gh.counts()
	if req != 2 || nm != 0 || charged != 2 {
		t.Fatalf("after two passes within the interval: requests=%d 304s=%d charged=%d, want 2/0/2", req, nm, charged)
	}
	if got := r.Lookup("ghcr.io/hanzoai/api", "v1.9.0"); got.State != model.ReleaseNone || got.LatestTag != "v2.0.0" {
		t.Errorf("a tag missing from a whole releases list: %+v, want none (no per-tag request needed)", got)
	}

	clock.Advance(6 * time.Minute)
	r.refresh(context.Background())
	req, nm, charged = gh.counts()
	// Both lists revalidate as free 304s.
	if req != 4 || nm != 2 || charged != 2 {
		t.Fatalf("after the interval: requests=%d 304s=%d charged=%d, want 4/2/2", req, nm, charged)
	}
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.State != model.ReleaseFound || got.Assets != 3 || !got.CheckedAt.Equal(clock.Now()) {
		t.Errorf("after a 304 the replayed answer is %+v, want found, 3 assets, checked now", got)
	}

	// A new release moves /releases/latest: its ETag no longer matches.
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.3.0", assets: 2}, fakeRelease{tag: "v1.2.0", assets: 3})
	clock.Advance(11 * time.Minute)
	r.refresh(context.Background())
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.LatestTag != "v1.3.0" {
		t.Errorf("latest after a new release: %q, want v1.3.0", got.LatestTag)
	}
	st := r.Status()
	if st.Sent != 6 || st.NotModified != 3 || st.Remaining != 5000-3 || st.Warning != "" {
		t.Errorf("status %+v, want sent 6, 304s 3, remaining 4997, no warning", st)
	}
}

func TestCacheFileSurvivesRestart(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.2.0", assets: 3})
	path := filepath.Join(t.TempDir(), "cache", "releases.json")
	open := func() *Reader {
		r := newTestReader(t, srv.URL, clock, func(o *Options) { o.CachePath = path })
		r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.2.0"}})
		return r
	}
	first := open()
	first.refresh(context.Background())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("cache file not written: %v", err)
	}
	if strings.Contains(string(data), "ghp_test") || strings.Contains(string(data), "Release notes") {
		t.Errorf("cache file holds the token or whole release bodies:\n%s", data)
	}

	// Opened again five minutes later: answers come from the file, no request.
	clock.Advance(5 * time.Minute)
	second := open()
	if got := second.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.State != model.ReleaseFound || got.Assets != 3 {
		t.Fatalf("restarted reader before any request: %+v, want the cached found answer", got)
	}
	second.refresh(context.Background())
	if req, _, _ := gh.counts(); req != 1 {
		t.Fatalf("a board reopened within the interval sent %d requests in all, want only the first 1", req)
	}

	// Opened after the interval: the ETag from the file makes the check a free 304.
	clock.Advance(10 * time.Minute)
	third := open()
	third.refresh(context.Background())
	if req, nm, charged := gh.counts(); req != 2 || nm != 1 || charged != 1 {
		t.Fatalf("reopened after the interval: requests=%d 304s=%d charged=%d, want 2/1/1", req, nm, charged)
	}
	if got := third.Lookup("ghcr.io/hanzoai/iam", "v1.2.0"); got.URL == "" || got.Assets != 3 {
		t.Errorf("answer replayed from the cached body: %+v", got)
	}
}

func TestDamagedCacheFileIsIgnored(t *testing.T) {
	clock := newFakeClock()
	_, srv := newFakeGitHub(t, clock)
	path := filepath.Join(t.TempDir(), "releases.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.CachePath = path })
	if st := r.Status(); !strings.Contains(st.CacheError, "damaged") {
		t.Errorf("status cache error %q, want it to say the file is damaged", st.CacheError)
	}
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1"); got.State != model.ReleasePending {
		t.Errorf("state %q, want pending", got.State)
	}
}
