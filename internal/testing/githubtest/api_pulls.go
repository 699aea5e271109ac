package githubtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v84/github"
)

// pull is one pull request, always from a branch of the same repository.
type pull struct {
	number                       int
	title, body, head, base      string
	author                       string
	closed, merged               bool
	headSHA                      string // frozen once closed; live from the branch while open
	mergeSHA                     string
	approvals                    int
	created, closedAt, mergedAtT time.Time
}

// pullJSON renders p; the caller holds s.mu.
func (s *Server) pullJSON(p *pull) *github.PullRequest {
	head := p.headSHA
	if !p.closed {
		head = s.repo.resolve("refs/heads/" + p.head)
	}
	state := "open"
	if p.closed {
		state = "closed"
	}
	full := s.opts.Owner + "/" + s.opts.Name
	repo := &github.Repository{Name: github.Ptr(s.opts.Name), FullName: github.Ptr(full), Owner: &github.User{Login: github.Ptr(s.opts.Owner)}}
	out := &github.PullRequest{
		Number: github.Ptr(p.number), State: github.Ptr(state), Title: github.Ptr(p.title), Body: github.Ptr(p.body),
		HTMLURL:   github.Ptr(fmt.Sprintf("%s/%s/pull/%d", s.URL, full, p.number)),
		User:      &github.User{Login: github.Ptr(p.author)},
		CreatedAt: &github.Timestamp{Time: p.created}, Merged: github.Ptr(p.merged),
		Head: &github.PullRequestBranch{Ref: github.Ptr(p.head), SHA: github.Ptr(head), Label: github.Ptr(s.opts.Owner + ":" + p.head), Repo: repo},
		Base: &github.PullRequestBranch{Ref: github.Ptr(p.base), SHA: github.Ptr(s.repo.resolve("refs/heads/" + p.base)), Repo: repo},
	}
	out.UpdatedAt = &github.Timestamp{Time: p.updated()}
	if p.closed {
		out.ClosedAt = &github.Timestamp{Time: p.closedAt}
	}
	if p.merged {
		out.MergedAt, out.MergeCommitSHA = &github.Timestamp{Time: p.mergedAtT}, github.Ptr(p.mergeSHA)
	}
	return out
}

// updated is when p last changed, as GitHub's updated_at.
func (p *pull) updated() time.Time {
	at := p.created
	for _, t := range []time.Time{p.closedAt, p.mergedAtT} {
		if t.After(at) {
			at = t
		}
	}
	return at
}

// listPulls filters by state (default open), head (owner:branch) and base,
// and sorts as GitHub does: by creation (or, sort=updated, by the last
// change), descending for creation and ascending for the others unless
// direction says.
func (s *Server) listPulls(w http.ResponseWriter, r *http.Request, _ caller) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []*github.PullRequest{}
	for _, p := range s.pulls {
		if (state == "open" && p.closed) || (state == "closed" && !p.closed) {
			continue
		}
		if h := q.Get("head"); h != "" && !strings.EqualFold(h, s.opts.Owner+":"+p.head) {
			continue
		}
		if b := q.Get("base"); b != "" && b != p.base {
			continue
		}
		out = append(out, s.pullJSON(p))
	}
	at := func(p *github.PullRequest) time.Time { return p.GetCreatedAt().Time }
	if q.Get("sort") == "updated" {
		at = func(p *github.PullRequest) time.Time { return p.GetUpdatedAt().Time }
	}
	asc := q.Get("direction") == "asc" || q.Get("direction") == "" && q.Get("sort") == "updated"
	slices.SortStableFunc(out, func(a, b *github.PullRequest) int {
		if asc { // times are in seconds, as GitHub's: the number breaks a tie
			return cmp.Or(at(a).Compare(at(b)), a.GetNumber()-b.GetNumber())
		}
		return cmp.Or(at(b).Compare(at(a)), b.GetNumber()-a.GetNumber())
	})
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createPull(w http.ResponseWriter, r *http.Request, c caller) {
	var body github.NewPullRequest
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.GetTitle() == "" || body.GetHead() == "" || body.GetBase() == "" {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	head := body.GetHead()
	if owner, branch, ok := strings.Cut(head, ":"); ok && strings.EqualFold(owner, s.opts.Owner) {
		head = branch
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repo.resolve("refs/heads/"+head) == "" || s.repo.resolve("refs/heads/"+body.GetBase()) == "" {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	for _, p := range s.pulls {
		if !p.closed && p.head == head && p.base == body.GetBase() {
			writeError(w, http.StatusUnprocessableEntity, "A pull request already exists for "+s.opts.Owner+":"+head+".")
			return
		}
	}
	p := &pull{number: len(s.pulls) + 1, title: body.GetTitle(), body: body.GetBody(), head: head, base: body.GetBase(),
		author: c.login, created: s.now().UTC().Truncate(time.Second)}
	s.pulls = append(s.pulls, p)
	writeJSON(w, http.StatusCreated, s.pullJSON(p))
}

// lookup finds the pull request the path names; the caller holds s.mu.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *pull {
	n, err := strconv.Atoi(r.PathValue("number"))
	if err != nil || n < 1 || n > len(s.pulls) {
		writeError(w, http.StatusNotFound, "Not Found")
		return nil
	}
	return s.pulls[n-1]
}

func (s *Server) getPull(w http.ResponseWriter, r *http.Request, _ caller) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.lookup(w, r); p != nil {
		writeJSON(w, http.StatusOK, s.pullJSON(p))
	}
}

// editPull changes the title, body or state (closing or reopening).
func (s *Server) editPull(w http.ResponseWriter, r *http.Request, _ caller) {
	var body struct {
		Title, Body, State *string
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(w, r)
	if p == nil {
		return
	}
	if body.Title != nil {
		p.title = *body.Title
	}
	if body.Body != nil {
		p.body = *body.Body
	}
	if body.State != nil && !p.merged {
		s.setClosed(p, *body.State == "closed")
	}
	writeJSON(w, http.StatusOK, s.pullJSON(p))
}

func (s *Server) setClosed(p *pull, closed bool) {
	if closed && !p.closed {
		p.headSHA = s.repo.resolve("refs/heads/" + p.head)
		p.closedAt = s.now().UTC().Truncate(time.Second)
	}
	p.closed = closed
}

// ClosePull closes pull request n without merging it, as a person on GitHub might.
func (s *Server) ClosePull(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setClosed(s.pulls[n-1], true)
}

// Approve records an approving review on pull request n.
func (s *Server) Approve(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls[n-1].approvals++
}

// mergePull merges with a real merge commit, refusing as GitHub does: a head
// moved since the caller looked (409), a closed or conflicting pull request,
// a protected base's missing reviews or checks (405).
func (s *Server) mergePull(w http.ResponseWriter, r *http.Request, c caller) {
	var body struct {
		CommitMessage string `json:"commit_message"`
		SHA           string `json:"sha"`
		MergeMethod   string `json:"merge_method"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(w, r)
	if p == nil {
		return
	}
	head, base := s.repo.resolve("refs/heads/"+p.head), s.repo.resolve("refs/heads/"+p.base)
	if p.closed {
		writeError(w, http.StatusMethodNotAllowed, "Pull Request is not mergeable")
		return
	}
	if body.SHA != "" && body.SHA != head {
		writeError(w, http.StatusConflict, "Head branch was modified. Review and try the merge again.")
		return
	}
	method := body.MergeMethod
	if method == "" {
		method = "merge"
	}
	if !s.allows(method) {
		writeError(w, http.StatusMethodNotAllowed, map[string]string{"merge": "Merge commits are not allowed on this repository.",
			"squash": "Squash merges are not allowed on this repository.", "rebase": "Rebase merges are not allowed on this repository."}[method])
		return
	}
	if method == "rebase" {
		writeError(w, http.StatusMethodNotAllowed, "githubtest does not rebase.")
		return
	}
	if rule, ok := s.protected[p.base]; ok {
		if p.approvals < rule.RequiredReviews {
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("At least %d approving review is required by reviewers with write access.", rule.RequiredReviews))
			return
		}
		for _, ctx := range rule.RequiredChecks {
			if !s.statusSucceeded(head, ctx) {
				writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("Required status check %q is expected.", ctx))
				return
			}
		}
	}
	msg := fmt.Sprintf("Merge pull request #%d from %s/%s\n\n%s\n", p.number, s.opts.Owner, p.head, p.title)
	parents := []string{base, head}
	if method == "squash" {
		msg, parents = fmt.Sprintf("%s (#%d)\n", p.title, p.number), []string{base}
	}
	sha, conflict, err := s.repo.merge(base, head, msg, c.login, parents...)
	if conflict || err != nil || s.repo.updateRef("refs/heads/"+p.base, sha, base) != nil {
		writeError(w, http.StatusMethodNotAllowed, "Pull Request is not mergeable")
		return
	}
	s.setClosed(p, true)
	p.merged, p.mergeSHA, p.mergedAtT = true, sha, p.closedAt
	writeJSON(w, http.StatusOK, &github.PullRequestMergeResult{SHA: github.Ptr(sha), Merged: github.Ptr(true),
		Message: github.Ptr("Pull Request successfully merged")})
}

// statusSucceeded: the caller holds s.mu.
func (s *Server) statusSucceeded(sha, context string) bool {
	for _, st := range s.statuses[sha] {
		if st.context == context {
			return st.state == "success"
		}
	}
	return false
}
