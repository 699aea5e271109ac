package githubtest

import (
	"net/http"
	"strings"
)

// caller is who sent a request, as the token says.
type caller struct {
	login string // "" for an anonymous request
	perm  Permission
}

type handler func(w http.ResponseWriter, r *http.Request, c caller)

// The endpoints, as go-github calls them. Everything else falls to
// unimplemented.
func (s *Server) routes(mux router) {
	const repo = "/api/v3/repos/{owner}/{repo}"
	mux.HandleFunc("GET /api/v3/user", s.api(s.getUser, false))
	mux.HandleFunc("GET "+repo, s.api(s.getRepo, true))
	mux.HandleFunc("GET "+repo+"/git/trees/{sha...}", s.api(s.getTree, true))
	mux.HandleFunc("GET "+repo+"/contents/{path...}", s.api(s.getContents, true))
	mux.HandleFunc("GET "+repo+"/git/ref/{ref...}", s.api(s.getRef, true))
	mux.HandleFunc("POST "+repo+"/git/refs", s.api(s.write(s.createRef), true))
	mux.HandleFunc("GET "+repo+"/git/commits/{sha}", s.api(s.getCommit, true))
	mux.HandleFunc("POST "+repo+"/git/trees", s.api(s.write(s.createTree), true))
	mux.HandleFunc("POST "+repo+"/git/commits", s.api(s.write(s.createCommit), true))
	mux.HandleFunc("GET "+repo+"/pulls", s.api(s.listPulls, true))
	mux.HandleFunc("POST "+repo+"/pulls", s.api(s.write(s.createPull), true))
	mux.HandleFunc("GET "+repo+"/pulls/{number}", s.api(s.getPull, true))
	mux.HandleFunc("PATCH "+repo+"/pulls/{number}", s.api(s.write(s.editPull), true))
	mux.HandleFunc("PUT "+repo+"/pulls/{number}/merge", s.api(s.write(s.mergePull), true))
	mux.HandleFunc("GET "+repo+"/commits/{ref}/status", s.api(s.combinedStatus, true))
	mux.HandleFunc("GET "+repo+"/commits/{ref}/check-runs", s.api(s.listCheckRuns, true))
	mux.HandleFunc("GET "+repo+"/releases", s.api(s.listReleases, false))
	mux.HandleFunc("GET "+repo+"/releases/tags/{tag}", s.api(s.releaseByTag, false))
	mux.HandleFunc("/", s.unimplementedEndpoint)
}

// Endpoints lists the routes the server implements, for documentation and
// for a test that compares them with what a client calls.
func Endpoints() []string {
	rec := &recordingMux{}
	(&Server{}).routes(rec)
	return rec.eps
}

type router interface {
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

func (s *Server) note(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Authorized: r.Header.Get("Authorization") != ""})
}

func (s *Server) unimplementedEndpoint(w http.ResponseWriter, r *http.Request) {
	s.note(r)
	s.mu.Lock()
	s.unimplemented = append(s.unimplemented, r.Method+" "+r.URL.RequestURI())
	s.mu.Unlock()
	writeError(w, http.StatusNotFound, "Not Found")
}

// api logs the request, follows a redirect the test asked for, and
// authenticates; inRepo requests must name the server's repository, which a
// token without access to a private one cannot see (404, as GitHub answers).
func (s *Server) api(h handler, inRepo bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.note(r)
		s.mu.Lock()
		redirect := s.redirect
		s.mu.Unlock()
		if redirect != "" {
			http.Redirect(w, r, redirect+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			return
		}
		c, ok := s.authenticate(r)
		if !ok {
			writeError(w, http.StatusUnauthorized, "Bad credentials")
			return
		}
		if inRepo {
			sameRepo := strings.EqualFold(r.PathValue("owner"), s.opts.Owner) && strings.EqualFold(r.PathValue("repo"), s.opts.Name)
			if !sameRepo || (s.opts.Private && (c.login == "" || c.perm == None)) {
				writeError(w, http.StatusNotFound, "Not Found")
				return
			}
		}
		h(w, r, c)
	}
}

func (s *Server) authenticate(r *http.Request) (caller, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return caller{perm: Read}, true
	}
	_, token, _ := strings.Cut(h, " ")
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.tokens[token]
	return c, ok
}

// write refuses a request that would change the repository without push access.
func (s *Server) write(h handler) handler {
	return func(w http.ResponseWriter, r *http.Request, c caller) {
		switch {
		case c.login == "":
			writeError(w, http.StatusUnauthorized, "Requires authentication")
		case c.perm != Write && c.perm != Admin:
			writeError(w, http.StatusForbidden, "Must have push access to repository")
		default:
			h(w, r, c)
		}
	}
}

// recordingMux lets Endpoints read the route table without serving.
type recordingMux struct{ eps []string }

func (m *recordingMux) HandleFunc(pattern string, _ func(http.ResponseWriter, *http.Request)) {
	if pattern != "/" {
		m.eps = append(m.eps, strings.Replace(pattern, "/api/v3", "", 1))
	}
}
