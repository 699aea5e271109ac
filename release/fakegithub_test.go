package release

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
	tag    string
	assets int
	draft  bool
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
	rel, found := f.find(owner+"/"+repo, what)
	if !found {
		f.charge()
		rateHeaders()
		w.WriteHeader(http.StatusNotFound)
		doc := "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name"
		if what == "latest" {
			doc = "https://docs.github.com/rest/releases/releases#get-the-latest-release"
		}
		fmt.Fprintf(w, `{"message":"Not Found","documentation_url":%q,"status":"404"}`, doc)
		return
	}
	body := releaseJSON(owner, repo, rel)
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

func (f *fakeGitHub) charge() {
	f.charged++
	if f.remaining > 0 {
		f.remaining--
	}
}

func (f *fakeGitHub) find(repo, what string) (fakeRelease, bool) {
	for _, r := range f.releases[repo] {
		if what == "latest" && !r.draft {
			return r, true
		}
		if what == "tags/"+r.tag {
			return r, true
		}
	}
	return fakeRelease{}, false
}

func parseReleasePath(p string) (owner, repo, what string, ok bool) {
	rest, ok := strings.CutPrefix(p, "/api/v3/repos/")
	if !ok {
		return "", "", "", false
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 4 || parts[2] != "releases" {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[3], parts[3] == "latest" || strings.HasPrefix(parts[3], "tags/")
}

// releaseJSON is a release object with the fields GitHub documents for
// "Get a release by tag name".
func releaseJSON(owner, repo string, r fakeRelease) []byte {
	api := "https://api.github.com/repos/" + owner + "/" + repo
	user := map[string]any{"login": "octocat", "id": 1, "type": "User", "site_admin": false}
	assets := []map[string]any{}
	for i := range r.assets {
		n := fmt.Sprintf("%s_%s_linux_amd%d.tar.gz", repo, r.tag, i)
		assets = append(assets, map[string]any{
			"url": fmt.Sprintf("%s/releases/assets/%d", api, i+1), "id": i + 1, "node_id": "RA_kwDO",
			"name": n, "label": "", "uploader": user, "content_type": "application/gzip", "state": "uploaded",
			"size": 1024 * (i + 1), "download_count": 42, "created_at": "2026-11-01T10:00:00Z",
			"updated_at":           "2026-11-01T10:00:00Z",
			"browser_download_url": "https://github.com/" + owner + "/" + repo + "/releases/download/" + r.tag + "/" + n,
		})
	}
	b, _ := json.Marshal(map[string]any{
		"url": api + "/releases/1", "html_url": "https://github.com/" + owner + "/" + repo + "/releases/tag/" + r.tag,
		"assets_url": api + "/releases/1/assets", "upload_url": "https://uploads.github.com/repos/" + owner + "/" + repo + "/releases/1/assets{?name,label}",
		"tarball_url": api + "/tarball/" + r.tag, "zipball_url": api + "/zipball/" + r.tag,
		"id": 1, "node_id": "RE_kwDO", "tag_name": r.tag, "target_commitish": "main", "name": r.tag,
		"body": strings.Repeat("Release notes. ", 200), "draft": r.draft, "prerelease": false,
		"created_at": "2026-11-01T09:00:00Z", "published_at": "2026-11-01T09:30:00Z",
		"author": user, "assets": assets,
	})
	return b
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
