package releasereader

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeGitHub implements the two GitHub REST endpoints the reader uses, with
// GitHub's documented bodies, ETags and rate-limit headers, under the
// Enterprise prefix /api/v3 (so every test also covers the Enterprise URL).
type fakeGitHub struct {
	t     *testing.T
	clock *fakeClock

	mu        sync.Mutex
	releases  map[string][]fakeRelease // owner/repo → releases, newest first
	limit     int
	remaining int
	reset     time.Time
	// refuse makes every request fail: "primary", "secondary403",
	// "secondary429", "secondary-no-retry" or "500".
	refuse     string
	retryAfter int

	requests    int            // every request that reached the server
	notModified int            // of which answered 304
	charged     int            // requests GitHub would count against the limit
	paths       map[string]int // requests per path
	auth        string         // last Authorization header
}

type fakeRelease struct {
	tag        string
	assets     int
	draft      bool
	prerelease bool
	published  time.Time // zero: a time derived from the release's place in the list
	htmlURL    string    // "": on github.com
}

func newFakeGitHub(t *testing.T, clock *fakeClock) (*fakeGitHub, *httptest.Server) {
	f := &fakeGitHub{t: t, clock: clock, releases: map[string][]fakeRelease{}, limit: 5000, remaining: 5000,
		paths: map[string]int{}}
	f.reset = clock.Now().Add(time.Hour)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeGitHub) set(repo string, rels ...fakeRelease) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.releases[repo] = rels
}

func (f *fakeGitHub) counts() (requests, notModified, charged int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests, f.notModified, f.charged
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if now := f.clock.Now(); !now.Before(f.reset) { // a new rate-limit window
		f.remaining, f.reset = f.limit, now.Add(time.Hour)
	}
	f.requests++
	f.paths[req.URL.EscapedPath()]++
	f.auth = req.Header.Get("Authorization")
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	rateHeaders := func() {
		h.Set("X-RateLimit-Limit", strconv.Itoa(f.limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(f.remaining))
		h.Set("X-RateLimit-Used", strconv.Itoa(f.limit-f.remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(f.reset.Unix(), 10))
		h.Set("X-RateLimit-Resource", "core")
	}
	switch f.refuse {
	case "primary":
		f.remaining = 0
		rateHeaders()
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`)
		return
	case "secondary403", "secondary429", "secondary-no-retry":
		rateHeaders()
		if f.refuse != "secondary-no-retry" {
			h.Set("Retry-After", strconv.Itoa(f.retryAfter))
		}
		code := http.StatusForbidden
		if f.refuse == "secondary429" {
			code = http.StatusTooManyRequests
		}
		w.WriteHeader(code)
		fmt.Fprint(w, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0401:2B5C:1D3E4F:2A3B4C:65A1B2C3.","documentation_url":"https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)
		return
	case "500":
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"message":"Server Error"}`)
		return
	}
	owner, repo, what, ok := parseReleasePath(req.URL.EscapedPath())
	if !ok || req.Method != http.MethodGet {
		f.t.Errorf("fake GitHub: unexpected %s %s", req.Method, req.URL)
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var body []byte
	if what == "" {
		var found bool
		if body, found = f.listJSON(w, req, owner, repo); !found {
			f.notFound(w, "https://docs.github.com/rest/releases/releases#list-releases", rateHeaders)
			return
		}
	} else {
		i, found := f.find(owner+"/"+repo, what)
		if !found {
			doc := "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name"
			if what == "latest" {
				doc = "https://docs.github.com/rest/releases/releases#get-the-latest-release"
			}
			f.notFound(w, doc, rateHeaders)
			return
		}
		body, _ = json.Marshal(releaseObject(owner, repo, f.releases[owner+"/"+repo], i))
	}
	sum := sha256.Sum256(body)
	etag := `W/"` + hex.EncodeToString(sum[:16]) + `"`
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, max-age=60, s-maxage=60")
	h.Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
	if req.Header.Get("If-None-Match") == etag {
		f.notModified++
		if f.auth == "" {
			f.charge() // a 304 is free only when the request was authorized
		}
		rateHeaders()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	f.charge()
	rateHeaders()
	w.Write(body)
}

func (f *fakeGitHub) notFound(w http.ResponseWriter, doc string, rateHeaders func()) {
	f.charge()
	rateHeaders()
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, `{"message":"Not Found","documentation_url":%q,"status":"404"}`, doc)
}

// listJSON is one page of "List releases" (per_page, default 30, at most
// 100; page from 1), newest first, with a Link header to the next page.
// found is false for a repo the fake does not know.
func (f *fakeGitHub) listJSON(w http.ResponseWriter, req *http.Request, owner, repo string) ([]byte, bool) {
	rels, found := f.releases[owner+"/"+repo]
	if !found {
		return nil, false
	}
	perPage, page := 30, 1
	if n, err := strconv.Atoi(req.URL.Query().Get("per_page")); err == nil && n > 0 {
		perPage = min(n, 100)
	}
	if n, err := strconv.Atoi(req.URL.Query().Get("page")); err == nil && n > 0 {
		page = n
	}
	from, to := min((page-1)*perPage, len(rels)), min(page*perPage, len(rels))
	out := []map[string]any{}
	for i := from; i < to; i++ {
		out = append(out, releaseObject(owner, repo, rels, i))
	}
	if to < len(rels) {
		next := *req.URL
		q := next.Query()
		q.Set("page", strconv.Itoa(page+1))
		next.RawQuery = q.Encode()
		w.Header().Set("Link", `<http://`+req.Host+next.String()+`>; rel="next"`)
	}
	b, _ := json.Marshal(out)
	return b, true
}

func (f *fakeGitHub) charge() {
	f.charged++
	if f.remaining > 0 {
		f.remaining--
	}
}

// find is the index of the release /releases/latest or /releases/tags/T
// names: latest is the newest neither draft nor prerelease; by tag, only a
// published (not draft) release.
func (f *fakeGitHub) find(repo, what string) (int, bool) {
	for i, r := range f.releases[repo] {
		if what == "latest" && !r.draft && !r.prerelease {
			return i, true
		}
		if what == "tags/"+r.tag && !r.draft {
			return i, true
		}
	}
	return 0, false
}

// parseReleasePath splits /api/v3/repos/O/R/releases[/latest|/tags/T];
// what is "" for the list.
func parseReleasePath(p string) (owner, repo, what string, ok bool) {
	rest, ok := strings.CutPrefix(p, "/api/v3/repos/")
	if !ok {
		return "", "", "", false
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) == 3 && parts[2] == "releases" {
		return parts[0], parts[1], "", true
	}
	if len(parts) < 4 || parts[2] != "releases" {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[3], parts[3] == "latest" || strings.HasPrefix(parts[3], "tags/")
}

// fakeEpoch dates the fake's releases: the one at place i of a list
// (newest first) was created i days before it.
var fakeEpoch = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// releaseObject is rels[i] with the fields GitHub documents for a release.
func releaseObject(owner, repo string, rels []fakeRelease, i int) map[string]any {
	r := rels[i]
	created := fakeEpoch.Add(-time.Duration(i) * 24 * time.Hour)
	published := r.published
	if published.IsZero() {
		published = created.Add(30 * time.Minute)
	}
	api := "https://api.github.com/repos/" + owner + "/" + repo
	id := i + 1
	user := map[string]any{"login": "octocat", "id": 1, "type": "User", "site_admin": false}
	assets := []map[string]any{}
	for j := range r.assets {
		n := fmt.Sprintf("%s_%s_linux_amd%d.tar.gz", repo, r.tag, j)
		assets = append(assets, map[string]any{
			"url": fmt.Sprintf("%s/releases/assets/%d", api, j+1), "id": j + 1, "node_id": "RA_kwDO",
			"name": n, "label": "", "uploader": user, "content_type": "application/gzip", "state": "uploaded",
			"size": 1024 * (j + 1), "download_count": 42, "created_at": "2026-11-01T10:00:00Z",
			"updated_at":           "2026-11-01T10:00:00Z",
			"browser_download_url": "https://github.com/" + owner + "/" + repo + "/releases/download/" + r.tag + "/" + n,
		})
	}
	html := r.htmlURL
	if html == "" {
		html = "https://github.com/" + owner + "/" + repo + "/releases/tag/" + r.tag
	}
	return map[string]any{
		"url": fmt.Sprintf("%s/releases/%d", api, id), "html_url": html,
		"assets_url": fmt.Sprintf("%s/releases/%d/assets", api, id), "upload_url": fmt.Sprintf("https://uploads.github.com/repos/%s/%s/releases/%d/assets{?name,label}", owner, repo, id),
		"tarball_url": api + "/tarball/" + r.tag, "zipball_url": api + "/zipball/" + r.tag,
		"id": id, "node_id": "RE_kwDO", "tag_name": r.tag, "target_commitish": "main", "name": r.tag,
		"body": strings.Repeat("Release notes. ", 200), "draft": r.draft, "prerelease": r.prerelease,
		"created_at": created.Format(time.RFC3339), "published_at": published.Format(time.RFC3339),
		"author": user, "assets": assets,
	}
}

// fakeClock is the injected clock; tests move it, nothing sleeps.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 30, 13, 40, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
