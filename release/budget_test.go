package release

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
)

// TestBudgetFor150AppBoard measures what a 150-app board (60 repos, 150
// repo/tag pairs, 15 of them without a release) spends per hour at the
// default 10-minute interval, authorized, against the fake GitHub.
func TestBudgetFor150AppBoard(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	var pairs []RepoTag
	missing := 0
	for i := range 60 {
		repo := fmt.Sprintf("hanzoai/svc%02d", i)
		tags := 2
		if i < 30 {
			tags = 3
		}
		var rels []fakeRelease
		for j := range tags {
			tag := fmt.Sprintf("v1.%d.0", j)
			pairs = append(pairs, RepoTag{Repo: "ghcr.io/" + repo, Tag: tag})
			if j == 0 && missing < 15 {
				missing++ // declared tag with no release: a 404, which has no ETag
				continue
			}
			rels = append(rels, fakeRelease{tag: tag, assets: 2})
		}
		gh.set(repo, rels...)
	}
	r := newTestReader(t, srv.URL, clock, nil)
	r.Track(pairs)
	hour := func() (sent, charged int) {
		s0, _, c0 := gh.counts()
		for range 6 {
			r.refresh(context.Background())
			clock.Advance(10 * time.Minute)
		}
		s1, _, c1 := gh.counts()
		return s1 - s0, c1 - c0
	}
	sent1, charged1 := hour()
	sent2, charged2 := hour()
	t.Logf("150-app board, 60 repos, 15 pairs without release: first hour sent %d, counted %d; next hour sent %d, counted %d (without ETags every sent request counts)",
		sent1, charged1, sent2, charged2)
	if sent1 != 6*210 || sent2 != 6*210 {
		t.Errorf("sent %d and %d requests per hour, want %d (210 checks every 10 minutes)", sent1, sent2, 6*210)
	}
	if charged1 != 210+5*15 || charged2 != 6*15 {
		t.Errorf("counted %d then %d, want %d then %d (only 404s and the cold start count)", charged1, charged2, 210+5*15, 6*15)
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
