package githubtest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/go-github/v84/github"
)

func refJSON(ref, sha string) *github.Reference {
	return &github.Reference{Ref: github.Ptr(ref), Object: &github.GitObject{SHA: github.Ptr(sha), Type: github.Ptr("commit")}}
}

func (s *Server) getRef(w http.ResponseWriter, r *http.Request, _ caller) {
	ref := "refs/" + r.PathValue("ref")
	sha := s.repo.resolve(ref)
	if sha == "" || !strings.HasPrefix(ref, "refs/heads/") && !strings.HasPrefix(ref, "refs/tags/") {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, refJSON(ref, sha))
}

func (s *Server) createRef(w http.ResponseWriter, r *http.Request, _ caller) {
	var body github.CreateRef
	if json.NewDecoder(r.Body).Decode(&body) != nil || strings.Count(body.Ref, "/") < 2 || !strings.HasPrefix(body.Ref, "refs/") {
		writeError(w, http.StatusUnprocessableEntity, "Reference name must start with 'refs/' and have at least two slashes.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.protected[strings.TrimPrefix(body.Ref, "refs/heads/")]; ok {
		writeError(w, http.StatusUnprocessableEntity, "Protected branch update failed for "+body.Ref+".")
		return
	}
	if s.repo.objectType(body.SHA) != "commit" {
		writeError(w, http.StatusUnprocessableEntity, "Object does not exist")
		return
	}
	if s.repo.resolve(body.Ref) != "" || s.repo.updateRef(body.Ref, body.SHA, "") != nil {
		writeError(w, http.StatusUnprocessableEntity, "Reference already exists")
		return
	}
	writeJSON(w, http.StatusCreated, refJSON(body.Ref, body.SHA))
}

func (s *Server) commitJSON(sha string) (*github.Commit, bool) {
	if s.repo.objectType(sha) != "commit" {
		return nil, false
	}
	c, err := s.repo.commit(sha)
	if err != nil {
		return nil, false
	}
	out := &github.Commit{SHA: github.Ptr(sha), Message: github.Ptr(c.message), Tree: &github.Tree{SHA: github.Ptr(c.tree)},
		Author: &github.CommitAuthor{Name: github.Ptr(c.author), Email: github.Ptr(c.email)}}
	for _, p := range c.parents {
		out.Parents = append(out.Parents, &github.Commit{SHA: github.Ptr(p)})
	}
	return out, true
}

func (s *Server) getCommit(w http.ResponseWriter, r *http.Request, _ caller) {
	c, ok := s.commitJSON(r.PathValue("sha"))
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// createTreeBody is the request go-github sends: entries with content (a
// new blob), sha (an existing one) or neither (a deletion, sha: null).
type createTreeBody struct {
	BaseTree string `json:"base_tree"`
	Tree     []struct {
		Path    string  `json:"path"`
		Mode    string  `json:"mode"`
		Type    string  `json:"type"`
		SHA     *string `json:"sha"`
		Content *string `json:"content"`
	} `json:"tree"`
}

func (s *Server) createTree(w http.ResponseWriter, r *http.Request, _ caller) {
	var body createTreeBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Tree) == 0 {
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.")
		return
	}
	base := ""
	if body.BaseTree != "" {
		if base = s.repo.resolve(body.BaseTree + "^{tree}"); base == "" {
			writeError(w, http.StatusUnprocessableEntity, "base_tree is not a valid tree oid")
			return
		}
	}
	edits := make([]treeEdit, 0, len(body.Tree))
	for _, e := range body.Tree {
		if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.Contains(e.Path, "..") {
			writeError(w, http.StatusUnprocessableEntity, "tree.path contains a malformed path component")
			return
		}
		edits = append(edits, treeEdit{path: e.Path, mode: e.Mode, content: e.Content, sha: e.SHA})
	}
	s.mu.Lock()
	tree, err := s.repo.writeTree(base, edits)
	s.mu.Unlock()
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	writeJSON(w, http.StatusCreated, &github.Tree{SHA: github.Ptr(tree), Truncated: github.Ptr(false)})
}

type createCommitBody struct {
	Message string   `json:"message"`
	Tree    string   `json:"tree"`
	Parents []string `json:"parents"`
}

func (s *Server) createCommit(w http.ResponseWriter, r *http.Request, c caller) {
	var body createCommitBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Message == "" {
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.")
		return
	}
	if s.repo.objectType(body.Tree) != "tree" {
		writeError(w, http.StatusUnprocessableEntity, "Tree SHA does not exist")
		return
	}
	for _, p := range body.Parents {
		if s.repo.objectType(p) != "commit" {
			writeError(w, http.StatusUnprocessableEntity, "Parent SHA does not exist or is not a commit object")
			return
		}
	}
	s.mu.Lock()
	sha, err := s.repo.commitTree(body.Tree, body.Message, c.login, body.Parents...)
	s.mu.Unlock()
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	out, _ := s.commitJSON(sha)
	writeJSON(w, http.StatusCreated, out)
}
