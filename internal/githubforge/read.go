package githubforge

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/promote"
)

// Login is the account behind the token.
func (f *Forge) Login(ctx context.Context) (string, error) {
	if err := f.noToken(); err != nil {
		return "", err
	}
	u, resp, err := f.gh.Users.Get(ctx, "")
	if err != nil {
		return "", f.refusal("read the token's user", resp, err)
	}
	return u.GetLogin(), nil
}

// Tree lists the files under dir at ref, recursively, in one request.
func (f *Forge) Tree(ctx context.Context, repo promote.Repo, ref, dir string) ([]string, error) {
	if err := f.noToken(); err != nil {
		return nil, err
	}
	tree, resp, err := f.gh.Git.GetTree(ctx, repo.Owner, repo.Name, ref, true)
	if err != nil {
		return nil, f.refusal("list "+repo.String()+"@"+ref, resp, err)
	}
	if tree.GetTruncated() {
		return nil, fmt.Errorf("list %s@%s: GitHub truncated the tree; the repository is too large to list at once", repo, ref)
	}
	prefix := strings.Trim(path.Clean("/"+dir), "/")
	var files []string
	for _, e := range tree.Entries {
		p := e.GetPath()
		if e.GetType() == "blob" && (prefix == "" || strings.HasPrefix(p, prefix+"/")) {
			files = append(files, p)
		}
	}
	return files, nil
}

// ReadFile reads one file at ref through the contents API.
func (f *Forge) ReadFile(ctx context.Context, repo promote.Repo, ref, file string) ([]byte, string, error) {
	if err := f.noToken(); err != nil {
		return nil, "", err
	}
	fc, _, resp, err := f.gh.Repositories.GetContents(ctx, repo.Owner, repo.Name, file, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, "", f.refusal("read "+repo.String()+"@"+ref+":"+file, resp, err)
	}
	if fc == nil || fc.GetType() != "file" {
		return nil, "", &promote.Refused{Reason: repo.String() + "@" + ref + ":" + file + " is not a file"}
	}
	data, err := fc.GetContent()
	if err != nil {
		return nil, "", fmt.Errorf("read %s@%s:%s: %w", repo, ref, file, err)
	}
	return []byte(data), fc.GetSHA(), nil
}

// PullRequest reads one pull request and its head commit's checks.
func (f *Forge) PullRequest(ctx context.Context, repo promote.Repo, number int) (promote.PullRequest, error) {
	if err := f.noToken(); err != nil {
		return promote.PullRequest{}, err
	}
	pr, resp, err := f.gh.PullRequests.Get(ctx, repo.Owner, repo.Name, number)
	if err != nil {
		return promote.PullRequest{}, f.refusal(fmt.Sprintf("read pull request %s#%d", repo, number), resp, err)
	}
	return f.withChecks(ctx, repo, pr), nil
}

// OpenPullRequests lists the open pull requests from branches of repo itself
// whose name starts with prefix.
func (f *Forge) OpenPullRequests(ctx context.Context, repo promote.Repo, prefix string) ([]promote.PullRequest, error) {
	if err := f.noToken(); err != nil {
		return nil, err
	}
	var out []promote.PullRequest
	opts := &github.PullRequestListOptions{State: "open", ListOptions: github.ListOptions{PerPage: 100}}
	for {
		prs, resp, err := f.gh.PullRequests.List(ctx, repo.Owner, repo.Name, opts)
		if err != nil {
			return nil, f.refusal("list the open pull requests of "+repo.String(), resp, err)
		}
		for _, pr := range prs {
			if strings.HasPrefix(pr.GetHead().GetRef(), prefix) && sameRepo(pr.GetHead().GetRepo(), repo) {
				out = append(out, f.withChecks(ctx, repo, pr))
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// MergedPullRequests lists the pull requests from branches of repo itself
// on prefix merged since since, the newest merge first: the closed ones,
// most recently updated first, read until a page ends before since.
func (f *Forge) MergedPullRequests(ctx context.Context, repo promote.Repo, prefix string, since time.Time) ([]promote.PullRequest, error) {
	if err := f.noToken(); err != nil {
		return nil, err
	}
	var out []promote.PullRequest
	opts := &github.PullRequestListOptions{State: "closed", Sort: "updated", Direction: "desc", ListOptions: github.ListOptions{PerPage: 100}}
	for {
		prs, resp, err := f.gh.PullRequests.List(ctx, repo.Owner, repo.Name, opts)
		if err != nil {
			return nil, f.refusal("list the merged pull requests of "+repo.String(), resp, err)
		}
		for _, pr := range prs {
			if at := pr.GetMergedAt().Time; !at.IsZero() && !at.Before(since) &&
				strings.HasPrefix(pr.GetHead().GetRef(), prefix) && sameRepo(pr.GetHead().GetRepo(), repo) {
				out = append(out, convert(repo, pr)) // merged: its checks no longer matter
			}
		}
		if resp.NextPage == 0 || len(prs) == 0 || prs[len(prs)-1].GetUpdatedAt().Before(since) {
			slices.SortFunc(out, promote.NewestMergeFirst)
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// sameRepo: a fork's branch of the same name is someone else's change.
func sameRepo(r *github.Repository, repo promote.Repo) bool {
	return r != nil && strings.EqualFold(r.GetFullName(), repo.String())
}

// withChecks converts pr, its checks read from the head commit (Checks
// unknown when they could not be read: a pull request is never lost to that).
func (f *Forge) withChecks(ctx context.Context, repo promote.Repo, pr *github.PullRequest) promote.PullRequest {
	out := convert(repo, pr)
	if out.HeadSHA != "" {
		out.Checks = f.checks(ctx, repo, out.HeadSHA)
	}
	return out
}

func convert(repo promote.Repo, pr *github.PullRequest) promote.PullRequest {
	out := promote.PullRequest{
		Repo: repo, Number: pr.GetNumber(), URL: pr.GetHTMLURL(), Branch: pr.GetHead().GetRef(), Base: pr.GetBase().GetRef(),
		Title: pr.GetTitle(), Body: pr.GetBody(), HeadSHA: pr.GetHead().GetSHA(), Checks: promote.ChecksUnknown,
		OpenedAt: pr.GetCreatedAt().Time, MergedAt: pr.GetMergedAt().Time, ClosedAt: pr.GetClosedAt().Time,
	}
	switch {
	case pr.GetMerged() || !out.MergedAt.IsZero():
		out.State, out.MergeSHA = promote.PRMerged, pr.GetMergeCommitSHA()
	case pr.GetState() == "closed":
		out.State = promote.PRClosed
	default:
		out.State = promote.PROpen
	}
	return out
}

// checks combines the commit statuses and the check runs of sha: failed if
// any failed, pending if any is still running, passed if all passed, none if
// there are neither. GitHub says "pending" for a commit with no statuses at
// all, so that case is told apart by the count.
func (f *Forge) checks(ctx context.Context, repo promote.Repo, sha string) promote.Checks {
	st, _, err := f.gh.Repositories.GetCombinedStatus(ctx, repo.Owner, repo.Name, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return promote.ChecksUnknown
	}
	runs, _, err := f.gh.Checks.ListCheckRunsForRef(ctx, repo.Owner, repo.Name, sha, &github.ListCheckRunsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		return promote.ChecksUnknown
	}
	failed, pending, seen := false, false, st.GetTotalCount() > 0
	if seen {
		switch st.GetState() {
		case "failure", "error":
			failed = true
		case "pending":
			pending = true
		}
	}
	for _, r := range runs.CheckRuns {
		seen = true
		if r.GetStatus() != "completed" {
			pending = true
			continue
		}
		switch r.GetConclusion() {
		case "success", "neutral", "skipped":
		default: // failure, cancelled, timed_out, action_required, stale
			failed = true
		}
	}
	switch {
	case failed:
		return promote.ChecksFailed
	case pending:
		return promote.ChecksPending
	case seen:
		return promote.ChecksPassed
	}
	return promote.ChecksNone
}
