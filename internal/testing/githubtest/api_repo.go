package githubtest

import (
	"encoding/base64"
	"net/http"
	"path"

	"github.com/google/go-github/v84/github"
)

func (s *Server) getUser(w http.ResponseWriter, _ *http.Request, c caller) {
	if c.login == "" {
		writeError(w, http.StatusUnauthorized, "Requires authentication")
		return
	}
	writeJSON(w, http.StatusOK, &github.User{Login: github.Ptr(c.login), Type: github.Ptr("User")})
}

func (s *Server) getRepo(w http.ResponseWriter, _ *http.Request, c caller) {
	push, admin := c.perm == Write || c.perm == Admin, c.perm == Admin
	full := s.opts.Owner + "/" + s.opts.Name
	writeJSON(w, http.StatusOK, &github.Repository{
		Name: github.Ptr(s.opts.Name), FullName: github.Ptr(full), Owner: &github.User{Login: github.Ptr(s.opts.Owner)},
		DefaultBranch: github.Ptr(s.opts.Branch), Private: github.Ptr(s.opts.Private),
		HTMLURL:          github.Ptr(s.URL + "/" + full),
		AllowMergeCommit: github.Ptr(s.allows("merge")), AllowSquashMerge: github.Ptr(s.allows("squash")),
		AllowRebaseMerge: github.Ptr(s.allows("rebase")),
		Permissions: &github.RepositoryPermissions{Admin: github.Ptr(admin), Maintain: github.Ptr(admin),
			Push: github.Ptr(push), Triage: github.Ptr(push), Pull: github.Ptr(c.perm != None)},
	})
}

func (s *Server) allows(method string) bool {
	for _, m := range s.opts.MergeMethods {
		if m == method {
			return true
		}
	}
	return false
}

// getTree answers for a tree, or a commit or branch naming one (GitHub
// accepts any tree-ish).
func (s *Server) getTree(w http.ResponseWriter, r *http.Request, _ caller) {
	tree := s.repo.resolve(r.PathValue("sha") + "^{tree}")
	if tree == "" {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	lines, err := s.repo.lsTree(tree, r.URL.Query().Get("recursive") != "")
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := &github.Tree{SHA: github.Ptr(tree), Truncated: github.Ptr(false)}
	for _, l := range lines {
		e := &github.TreeEntry{SHA: github.Ptr(l.sha), Path: github.Ptr(l.path), Mode: github.Ptr(l.mode), Type: github.Ptr(l.typ)}
		if l.typ == "blob" {
			e.Size = github.Ptr(l.size)
		}
		out.Entries = append(out.Entries, e)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getContents(w http.ResponseWriter, r *http.Request, _ caller) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = s.opts.Branch
	}
	p := r.PathValue("path")
	obj := s.repo.resolve(ref + ":" + p)
	switch s.repo.objectType(obj) {
	case "blob":
		content, err := s.repo.blob(obj)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, &github.RepositoryContent{Type: github.Ptr("file"), Name: github.Ptr(path.Base(p)),
			Path: github.Ptr(p), SHA: github.Ptr(obj), Size: github.Ptr(len(content)), Encoding: github.Ptr("base64"),
			Content: github.Ptr(base64.StdEncoding.EncodeToString(content))})
	case "tree":
		lines, err := s.repo.lsTree(obj, false)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		var dir []*github.RepositoryContent
		for _, l := range lines {
			typ := "file"
			if l.typ == "tree" {
				typ = "dir"
			}
			dir = append(dir, &github.RepositoryContent{Type: github.Ptr(typ), Name: github.Ptr(l.path),
				Path: github.Ptr(path.Join(p, l.path)), SHA: github.Ptr(l.sha)})
		}
		writeJSON(w, http.StatusOK, dir)
	default:
		writeError(w, http.StatusNotFound, "Not Found")
	}
}

// status is one commit status a test set.
type status struct{ context, state string }

// checkRun is one check run a test set.
type checkRun struct{ name, status, conclusion string }

// SetStatus sets a commit status (state: pending, success, failure, error)
// for context on sha, replacing an earlier one of the same context.
func (s *Server) SetStatus(sha, context, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.statuses[sha][:0:0]
	for _, st := range s.statuses[sha] {
		if st.context != context {
			list = append(list, st)
		}
	}
	s.statuses[sha] = append(list, status{context: context, state: state})
}

// SetCheckRun sets a check run on sha: status queued, in_progress or
// completed, with a conclusion (success, failure, …) once completed.
func (s *Server) SetCheckRun(sha, name, status, conclusion string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.checkRuns[sha][:0:0]
	for _, c := range s.checkRuns[sha] {
		if c.name != name {
			list = append(list, c)
		}
	}
	s.checkRuns[sha] = append(list, checkRun{name: name, status: status, conclusion: conclusion})
}

// combinedStatus is GitHub's: failure if any status failed or errored,
// pending if any is pending or there are none, success otherwise.
func (s *Server) combinedStatus(w http.ResponseWriter, r *http.Request, _ caller) {
	sha := s.repo.resolve(r.PathValue("ref") + "^{commit}")
	if sha == "" {
		writeError(w, http.StatusNotFound, "No commit found for SHA: "+r.PathValue("ref"))
		return
	}
	s.mu.Lock()
	list := append([]status(nil), s.statuses[sha]...)
	s.mu.Unlock()
	state := "success"
	if len(list) == 0 {
		state = "pending"
	}
	out := &github.CombinedStatus{SHA: github.Ptr(sha), TotalCount: github.Ptr(len(list))}
	for _, st := range list {
		switch {
		case st.state == "failure" || st.state == "error":
			state = "failure"
		case st.state == "pending" && state != "failure":
			state = "pending"
		}
		out.Statuses = append(out.Statuses, &github.RepoStatus{Context: github.Ptr(st.context), State: github.Ptr(st.state)})
	}
	out.State = github.Ptr(state)
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) listCheckRuns(w http.ResponseWriter, r *http.Request, _ caller) {
	sha := s.repo.resolve(r.PathValue("ref") + "^{commit}")
	if sha == "" {
		writeError(w, http.StatusUnprocessableEntity, "No commit found for SHA: "+r.PathValue("ref"))
		return
	}
	s.mu.Lock()
	list := append([]checkRun(nil), s.checkRuns[sha]...)
	s.mu.Unlock()
	out := &github.ListCheckRunsResults{Total: github.Ptr(len(list)), CheckRuns: []*github.CheckRun{}}
	for _, c := range list {
		run := &github.CheckRun{Name: github.Ptr(c.name), Status: github.Ptr(c.status), HeadSHA: github.Ptr(sha)}
		if c.conclusion != "" {
			run.Conclusion = github.Ptr(c.conclusion)
		}
		out.CheckRuns = append(out.CheckRuns, run)
	}
	writeJSON(w, http.StatusOK, out)
}
