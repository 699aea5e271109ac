// Package githubtest is a GitHub REST server for tests, over TLS, backed by a
// real bare git repository that it also serves over git's smart HTTP, so a
// test can clone what the client wrote. It answers only the endpoints a
// client is known to call, with go-github's own types; any other request is
// answered 404 and fails the test when it ends.
package githubtest

import (
	"encoding/json"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Permission is a token's access to the repository.
type Permission string

const (
	None  Permission = "none" // cannot see a private repository
	Read  Permission = "read"
	Write Permission = "write"
	Admin Permission = "admin"
)

// Options describe the one repository the server holds.
type Options struct {
	Owner, Name string            // default hanzoai/universe
	Branch      string            // the default branch, default main
	Files       map[string]string // path → content of the first commit
	Private     bool
	// MergeMethods the repository allows: "merge", "squash" (both
	// implemented), "rebase" (reported, refused). Default: merge and squash.
	MergeMethods []string
}

// Request is one request the server received.
type Request struct {
	Method, Path, Query string
	Authorized          bool // an Authorization header was present
}

// Server is the test GitHub. Its controls may be called while a client runs.
type Server struct {
	*httptest.Server
	t    testing.TB
	repo *gitRepo
	opts Options

	mu            sync.Mutex // guards the fields below and serialises git writes
	tokens        map[string]caller
	protected     map[string]Protection
	statuses      map[string][]status
	checkRuns     map[string][]checkRun
	pulls         []*pull
	log           []Request
	unimplemented []string
	redirect      string
	releases      map[string][]release // owner/name → releases, newest first (api_releases.go)
	now           func() time.Time
}

// Protection is a protected branch's rules as merges see them. Every
// protected branch refuses direct writes.
type Protection struct {
	RequiredReviews int      // approving reviews a merge needs
	RequiredChecks  []string // status contexts that must succeed
}

// New starts the server with the repository seeded from opts.Files in one
// commit on the default branch. It is closed when the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Owner == "" {
		opts.Owner, opts.Name = "hanzoai", "universe"
	}
	if opts.Branch == "" {
		opts.Branch = "main"
	}
	if opts.MergeMethods == nil {
		opts.MergeMethods = []string{"merge", "squash"}
	}
	root := t.TempDir()
	repo, err := initBare(filepath.Join(root, opts.Owner, opts.Name+".git"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.run(nil, nil, "symbolic-ref", "HEAD", "refs/heads/"+opts.Branch); err != nil {
		t.Fatal(err)
	}
	if len(opts.Files) > 0 {
		if _, err := repo.commitFiles(opts.Branch, "", opts.Files, "Seed the repository\n", "seed"); err != nil {
			t.Fatal(err)
		}
	}
	s := &Server{t: t, repo: repo, opts: opts, tokens: map[string]caller{}, protected: map[string]Protection{},
		statuses: map[string][]status{}, checkRuns: map[string][]checkRun{}, now: time.Now}
	mux := http.NewServeMux()
	s.routes(mux)
	mux.Handle("/git/", &cgi.Handler{Path: "/usr/lib/git-core/git-http-backend", Root: "/git",
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	s.Server = httptest.NewTLSServer(mux)
	t.Cleanup(s.Close)
	t.Cleanup(s.reportUnimplemented)
	return s
}

// APIURL is the base URL a client is configured with (GitHub Enterprise style).
func (s *Server) APIURL() string { return s.URL + "/api/v3/" }

// CloneURL is the repository over git's smart HTTP.
func (s *Server) CloneURL() string {
	return s.URL + "/git/" + s.opts.Owner + "/" + s.opts.Name + ".git"
}

// AddToken makes token authenticate as login with perm on the repository.
func (s *Server) AddToken(token, login string, perm Permission) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = caller{login: login, perm: perm}
}

// Protect protects branch: direct writes refused, merges held to p.
func (s *Server) Protect(branch string, p Protection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protected[branch] = p
}

// RedirectTo answers every later API request with a 307 to the same path on
// base (another server), as a misconfigured or hostile host might.
func (s *Server) RedirectTo(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redirect = strings.TrimSuffix(base, "/")
}

// Requests is every API request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Writes is every API request that was not a read.
func (s *Server) Writes() []Request {
	var w []Request
	for _, r := range s.Requests() {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w = append(w, r)
		}
	}
	return w
}

// Git runs git in the bare repository (for a test's assertions) and fails
// the test on an error.
func (s *Server) Git(args ...string) string {
	s.t.Helper()
	out, err := s.repo.run(nil, nil, args...)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// Head is the commit a branch points at, "" if it does not exist.
func (s *Server) Head(branch string) string { return s.repo.resolve("refs/heads/" + branch) }

// Push commits files onto branch as someone else would (bypassing the API
// and protection) and returns the new commit; a new branch starts from the
// default branch.
func (s *Server) Push(branch string, files map[string]string, message string) string {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	sha, err := s.repo.commitFiles(branch, s.opts.Branch, files, message+"\n", "someone-else")
	if err != nil {
		s.t.Fatal(err)
	}
	return sha
}

func (s *Server) reportUnimplemented() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.unimplemented) > 0 {
		s.t.Errorf("githubtest: the client called endpoints this server does not implement (answered 404):\n  %s",
			strings.Join(s.unimplemented, "\n  "))
	}
}

// errorBody is GitHub's error document.
type errorBody struct {
	Message          string `json:"message"`
	DocumentationURL string `json:"documentation_url,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, message string) {
	writeJSON(w, code, errorBody{Message: message, DocumentationURL: "https://docs.github.com/rest"})
}
