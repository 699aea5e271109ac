package githubtest

import (
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v84/github"
)

// Releases of any repository the test names (an App's image repository,
// not the server's git repository), so a board reading its releases from
// this server finds them: GitHub's list, newest first, and one by tag.

type release struct{ tag, url string }

// SetReleases makes tags (newest first) the releases of owner/name.
func (s *Server) SetReleases(owner, name string, tags ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.releases == nil {
		s.releases = map[string][]release{}
	}
	var rels []release
	for _, t := range tags {
		rels = append(rels, release{tag: t, url: s.URL + "/" + owner + "/" + name + "/releases/tag/" + t})
	}
	s.releases[strings.ToLower(owner+"/"+name)] = rels
}

func (s *Server) releasesOf(r *http.Request) []release {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releases[strings.ToLower(r.PathValue("owner")+"/"+r.PathValue("repo"))]
}

func releaseJSON(rel release, i int) *github.RepositoryRelease {
	at := github.Timestamp{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(i) * 24 * time.Hour)}
	return &github.RepositoryRelease{TagName: github.Ptr(rel.tag), Name: github.Ptr(rel.tag), HTMLURL: github.Ptr(rel.url),
		ID: github.Ptr(int64(1000 + i)), CreatedAt: &at, PublishedAt: &at, Draft: github.Ptr(false), Prerelease: github.Ptr(false),
		Assets: []*github.ReleaseAsset{{Name: github.Ptr(rel.tag + ".tar.gz"), ID: github.Ptr(int64(2000 + i))}}}
}

func (s *Server) listReleases(w http.ResponseWriter, r *http.Request, _ caller) {
	rels := s.releasesOf(r)
	if rels == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	out := []*github.RepositoryRelease{}
	for i, rel := range rels {
		out = append(out, releaseJSON(rel, i))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) releaseByTag(w http.ResponseWriter, r *http.Request, _ caller) {
	for i, rel := range s.releasesOf(r) {
		if rel.tag == r.PathValue("tag") {
			writeJSON(w, http.StatusOK, releaseJSON(rel, i))
			return
		}
	}
	writeError(w, http.StatusNotFound, "Not Found")
}
