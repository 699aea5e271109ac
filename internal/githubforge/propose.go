package githubforge

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/promote"
)

// Propose opens the pull request of c. Everything that can refuse is read
// first (permission, an open pull request to reuse, the base's head, each
// file's blob there); then the writes, none of them to the base: one tree on
// the base's tree, one commit whose parent is the base's head, the branch,
// the pull request.
func (f *Forge) Propose(ctx context.Context, c promote.Change) (promote.PullRequest, error) {
	if err := f.noToken(); err != nil {
		return promote.PullRequest{}, err
	}
	if err := checkChange(c); err != nil {
		return promote.PullRequest{}, err
	}
	o, n := c.Repo.Owner, c.Repo.Name
	repo, resp, err := f.gh.Repositories.Get(ctx, o, n)
	if err != nil {
		return promote.PullRequest{}, f.refusal("read "+c.Repo.String(), resp, err)
	}
	if !repo.GetPermissions().GetPush() {
		return promote.PullRequest{}, &promote.Refused{Reason: "this token cannot push to " + c.Repo.String() + " (no write access)"}
	}
	if c.Branch == repo.GetDefaultBranch() {
		return promote.PullRequest{}, &promote.Refused{Reason: "branch " + c.Branch + " is the repository's default branch"}
	}
	if pr, ok, err := f.openFor(ctx, c); err != nil || ok {
		return pr, err
	}
	baseRef, resp, err := f.gh.Git.GetRef(ctx, o, n, "heads/"+c.Base)
	if err != nil {
		return promote.PullRequest{}, f.refusal("read the base branch "+c.Base, resp, err)
	}
	baseHead := baseRef.GetObject().GetSHA()
	for _, fe := range c.Files {
		_, sha, err := f.ReadFile(ctx, c.Repo, baseHead, fe.Path)
		if err != nil {
			return promote.PullRequest{}, err
		}
		if sha != fe.OldSHA {
			return promote.PullRequest{}, &promote.Refused{Reason: fmt.Sprintf(
				"%s changed on %s since it was read (blob %s, was %s): read it again", fe.Path, c.Base, short(sha), short(fe.OldSHA))}
		}
	}
	if ready, err := f.branchAlreadyWritten(ctx, c, baseHead); err != nil || ready {
		if err != nil {
			return promote.PullRequest{}, err
		}
		return f.openPullRequest(ctx, c) // an earlier attempt wrote the branch, then failed
	}
	commit, err := f.writeCommit(ctx, c, baseHead)
	if err != nil {
		return promote.PullRequest{}, err
	}
	_, resp, err = f.gh.Git.CreateRef(ctx, o, n, github.CreateRef{Ref: "refs/heads/" + c.Branch, SHA: commit})
	if err != nil {
		return promote.PullRequest{}, f.refusal("create the branch "+c.Branch, resp, err)
	}
	return f.openPullRequest(ctx, c)
}

// checkChange refuses a change that could write the base or a path outside
// the repository's tree.
func checkChange(c promote.Change) error {
	switch {
	case c.Repo.Owner == "" || c.Repo.Name == "":
		return &promote.Refused{Reason: "no repository"}
	case c.Branch == "" || c.Base == "" || c.Branch == c.Base:
		return &promote.Refused{Reason: fmt.Sprintf("branch %q must be named and differ from the base %q", c.Branch, c.Base)}
	case strings.HasPrefix(c.Branch, "refs/") || strings.Contains(c.Branch, ".."):
		return &promote.Refused{Reason: fmt.Sprintf("branch %q is not a plain branch name", c.Branch)}
	case len(c.Files) == 0:
		return &promote.Refused{Reason: "the change has no file"}
	}
	seen := map[string]bool{}
	for _, fe := range c.Files {
		if fe.Path == "" || path.Clean(fe.Path) != fe.Path || strings.HasPrefix(fe.Path, "/") || strings.HasPrefix(fe.Path, "../") || seen[fe.Path] {
			return &promote.Refused{Reason: fmt.Sprintf("file path %q is not a clean path inside the repository, once", fe.Path)}
		}
		if !utf8.Valid(fe.Content) {
			return &promote.Refused{Reason: fe.Path + ": not UTF-8 text"} // the Git Data API takes text content
		}
		seen[fe.Path] = true
	}
	return nil
}

// openFor finds the open pull request of c's branch into its base.
func (f *Forge) openFor(ctx context.Context, c promote.Change) (promote.PullRequest, bool, error) {
	prs, resp, err := f.gh.PullRequests.List(ctx, c.Repo.Owner, c.Repo.Name, &github.PullRequestListOptions{
		State: "open", Head: c.Repo.Owner + ":" + c.Branch, Base: c.Base})
	if err != nil {
		return promote.PullRequest{}, false, f.refusal("look for an open pull request of "+c.Branch, resp, err)
	}
	for _, pr := range prs {
		if pr.GetHead().GetRef() == c.Branch && sameRepo(pr.GetHead().GetRepo(), c.Repo) {
			out := f.withChecks(ctx, c.Repo, pr)
			out.Reused = true
			return out, true, nil
		}
	}
	return promote.PullRequest{}, false, nil
}

// branchAlreadyWritten: the branch exists. If it is one commit on the base
// head that changes exactly the change's files to their new bytes, it is
// used as is; anything else on it is refused, never overwritten.
func (f *Forge) branchAlreadyWritten(ctx context.Context, c promote.Change, baseHead string) (bool, error) {
	o, n := c.Repo.Owner, c.Repo.Name
	ref, resp, err := f.gh.Git.GetRef(ctx, o, n, "heads/"+c.Branch)
	if resp != nil && resp.StatusCode == 404 {
		return false, nil
	}
	if err != nil {
		return false, f.refusal("read the branch "+c.Branch, resp, err)
	}
	other := &promote.Refused{Reason: "branch " + c.Branch + " already exists with other content; delete it or promote again under another name"}
	head, resp, err := f.gh.Git.GetCommit(ctx, o, n, ref.GetObject().GetSHA())
	if err != nil {
		return false, f.refusal("read the branch "+c.Branch, resp, err)
	}
	if len(head.Parents) != 1 || head.Parents[0].GetSHA() != baseHead {
		return false, other
	}
	want := map[string]string{}
	for _, fe := range c.Files {
		want[fe.Path] = blobSHA(fe.Content)
	}
	got, err := f.blobs(ctx, c.Repo, head.GetTree().GetSHA())
	if err != nil {
		return false, err
	}
	was, err := f.blobs(ctx, c.Repo, baseHead)
	if err != nil {
		return false, err
	}
	for p := range union(got, was) {
		expect, edited := want[p]
		if !edited {
			expect = was[p]
		}
		if got[p] != expect {
			return false, other
		}
	}
	return true, nil
}

// blobs maps every file of a tree-ish to its blob.
func (f *Forge) blobs(ctx context.Context, repo promote.Repo, treeish string) (map[string]string, error) {
	tree, resp, err := f.gh.Git.GetTree(ctx, repo.Owner, repo.Name, treeish, true)
	if err != nil {
		return nil, f.refusal("list "+repo.String()+"@"+short(treeish), resp, err)
	}
	if tree.GetTruncated() {
		return nil, fmt.Errorf("list %s@%s: GitHub truncated the tree", repo, short(treeish))
	}
	m := map[string]string{}
	for _, e := range tree.Entries {
		if e.GetType() == "blob" {
			m[e.GetPath()] = e.GetSHA()
		}
	}
	return m, nil
}

func union(a, b map[string]string) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// writeCommit writes one tree on the base head's tree with every file, and
// one commit of it whose only parent is the base head.
func (f *Forge) writeCommit(ctx context.Context, c promote.Change, baseHead string) (string, error) {
	o, n := c.Repo.Owner, c.Repo.Name
	head, resp, err := f.gh.Git.GetCommit(ctx, o, n, baseHead)
	if err != nil {
		return "", f.refusal("read the base commit", resp, err)
	}
	entries := make([]*github.TreeEntry, 0, len(c.Files))
	for _, fe := range c.Files {
		entries = append(entries, &github.TreeEntry{Path: github.Ptr(fe.Path), Mode: github.Ptr("100644"),
			Type: github.Ptr("blob"), Content: github.Ptr(string(fe.Content))})
	}
	tree, resp, err := f.gh.Git.CreateTree(ctx, o, n, head.GetTree().GetSHA(), entries)
	if err != nil {
		return "", f.refusal("write the tree", resp, err)
	}
	commit, resp, err := f.gh.Git.CreateCommit(ctx, o, n, github.Commit{Message: github.Ptr(c.Message),
		Tree: &github.Tree{SHA: tree.SHA}, Parents: []*github.Commit{{SHA: github.Ptr(baseHead)}}}, nil)
	if err != nil {
		return "", f.refusal("write the commit", resp, err)
	}
	return commit.GetSHA(), nil
}

func (f *Forge) openPullRequest(ctx context.Context, c promote.Change) (promote.PullRequest, error) {
	pr, resp, err := f.gh.PullRequests.Create(ctx, c.Repo.Owner, c.Repo.Name, &github.NewPullRequest{
		Title: github.Ptr(c.Title), Head: github.Ptr(c.Branch), Base: github.Ptr(c.Base), Body: github.Ptr(c.Body)})
	if err != nil {
		return promote.PullRequest{}, f.refusal("open the pull request", resp, err)
	}
	return f.withChecks(ctx, c.Repo, pr), nil
}

// blobSHA is git's object name of content as a blob.
func blobSHA(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
