package releasereader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// A row carries its repo's newest published releases from the one list
// request: newest published first, at most model.MaxRowReleases, drafts
// and tags that are no image tag left out, a notes link only on the
// configured GitHub's own host; the cache's 304 answers the same list.
func TestRowReleaseList(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	notes := func(tag string) string { return srv.URL + "/hanzoai/gateway/releases/tag/" + tag }
	rels := []fakeRelease{
		{tag: "v2.0.0", draft: true, htmlURL: notes("v2.0.0")},
		{tag: "v1.10.0-rc.1", prerelease: true, htmlURL: notes("v1.10.0-rc.1")},
		{tag: "v1.9.0", htmlURL: "https://evil.example/hanzoai/gateway/releases/tag/v1.9.0"},
		{tag: "v1.8.0\x1b[31m", htmlURL: notes("v1.8.0")},
		{tag: "v1.7.0", htmlURL: notes("v1.7.0"), published: fakeEpoch.Add(time.Hour)}, // published after v1.9.0
	}
	for i := 6; i >= 0; i-- {
		for j := 9; j >= 0; j-- {
			tag := fmt.Sprintf("v1.%d.%d-old", i, j)
			rels = append(rels, fakeRelease{tag: tag, htmlURL: notes(tag)})
		}
	}
	gh.set("hanzoai/gateway", rels...)
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track([]RepoTag{{"ghcr.io/hanzoai/gateway", "v1.7.0"}})
	r.refresh(context.Background())
	check := func(when string) {
		t.Helper()
		got := r.Lookup("ghcr.io/hanzoai/gateway", "v1.7.0").Releases
		if len(got) != model.MaxRowReleases {
			t.Fatalf("%s: %d releases on the row, want %d: %+v", when, len(got), model.MaxRowReleases, got)
		}
		want := []model.ReleaseTag{
			{Tag: "v1.7.0", URL: notes("v1.7.0"), Published: fakeEpoch.Add(time.Hour)},
			{Tag: "v1.10.0-rc.1", URL: notes("v1.10.0-rc.1"), Published: fakeEpoch.Add(-24*time.Hour + 30*time.Minute), Prerelease: true},
			{Tag: "v1.9.0", Published: fakeEpoch.Add(-48*time.Hour + 30*time.Minute)},
		}
		for i, w := range want {
			if g := got[i]; g.Tag != w.Tag || g.URL != w.URL || !g.Published.Equal(w.Published) || g.Prerelease != w.Prerelease {
				t.Errorf("%s: release %d = %+v, want %+v", when, i, g, w)
			}
		}
		if got[3].Tag != "v1.6.9-old" || got[19].Tag != "v1.5.3-old" {
			t.Errorf("%s: the list goes on %s … %s, want v1.6.9-old … v1.5.3-old", when, got[3].Tag, got[19].Tag)
		}
	}
	check("first read")
	clock.Advance(time.Hour)
	r.refresh(context.Background())
	if _, nm, _ := gh.counts(); nm == 0 {
		t.Fatalf("the second read was not a 304")
	}
	check("after a 304")
	if n := gh.paths["/api/v3/repos/hanzoai/gateway/releases"]; n != 2 {
		t.Errorf("%d list requests, want one per refresh (2)", n)
	}
}
