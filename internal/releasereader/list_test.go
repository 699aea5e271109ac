package releasereader

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// A repo with more releases than one page: tags on the page are answered by
// the list; a declared tag older than the page costs one request of its own,
// in the same refresh; a tag in no release is "none" after that request.
func TestTagsOlderThanTheListPage(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	var rels []fakeRelease
	for i := 119; i >= 0; i-- { // v1.0.119 newest … v1.0.0 oldest
		rels = append(rels, fakeRelease{tag: fmt.Sprintf("v1.0.%d", i), assets: i % 3})
	}
	gh.set("hanzoai/big", rels...)
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track([]RepoTag{
		{"ghcr.io/hanzoai/big", "v1.0.100"}, // on the first page
		{"ghcr.io/hanzoai/big", "v1.0.5"},   // older than the page
		{"ghcr.io/hanzoai/big", "v9.9.9"},   // no such release
	})
	r.refresh(context.Background())
	if got := r.Lookup("ghcr.io/hanzoai/big", "v1.0.100"); got.State != model.ReleaseFound || got.Assets != 1 || got.LatestTag != "v1.0.119" {
		t.Errorf("tag on the page: %+v, want found, 1 asset, latest v1.0.119", got)
	}
	if got := r.Lookup("ghcr.io/hanzoai/big", "v1.0.5"); got.State != model.ReleaseFound || got.Assets != 2 ||
		got.URL != "https://github.com/hanzoai/big/releases/tag/v1.0.5" {
		t.Errorf("tag older than the page: %+v, want found with 2 assets from its own request", got)
	}
	if got := r.Lookup("ghcr.io/hanzoai/big", "v9.9.9"); got.State != model.ReleaseNone {
		t.Errorf("tag in no release: %+v, want none", got)
	}
	want := map[string]int{
		"/api/v3/repos/hanzoai/big/releases":             1,
		"/api/v3/repos/hanzoai/big/releases/tags/v1.0.5": 1,
		"/api/v3/repos/hanzoai/big/releases/tags/v9.9.9": 1,
	}
	for p, n := range gh.paths {
		if want[p] != n {
			t.Errorf("%d requests to %s, want %d", n, p, want[p])
		}
	}
	if len(gh.paths) != len(want) {
		t.Errorf("requests went to %v, want exactly %v", gh.paths, want)
	}
}

// GitHub's latest is the newest release neither draft nor prerelease; a
// draft is no release for its tag; a prerelease is one.
func TestListDraftsAndPrereleases(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam",
		fakeRelease{tag: "v2.0.0", draft: true},
		fakeRelease{tag: "v1.9.0-rc.1", prerelease: true, assets: 1},
		fakeRelease{tag: "v1.8.0", assets: 2},
	)
	gh.set("hanzoai/empty")
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v2.0.0"}, {"ghcr.io/hanzoai/iam", "v1.9.0-rc.1"}, {"ghcr.io/hanzoai/empty", "v1.0.0"}})
	r.refresh(context.Background())
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v2.0.0"); got.State != model.ReleaseNone || got.LatestTag != "v1.8.0" {
		t.Errorf("declared draft: %+v, want none, latest v1.8.0", got)
	}
	if got := r.Lookup("ghcr.io/hanzoai/iam", "v1.9.0-rc.1"); got.State != model.ReleaseFound || got.Assets != 1 || got.LatestTag != "v1.8.0" {
		t.Errorf("declared prerelease: %+v, want found, latest v1.8.0", got)
	}
	got := r.Lookup("ghcr.io/hanzoai/empty", "v1.0.0")
	if got.State != model.ReleaseNone || got.LatestTag != "" || !strings.Contains(got.Detail, "repo has no published release") {
		t.Errorf("repo without releases: %+v", got)
	}
}
