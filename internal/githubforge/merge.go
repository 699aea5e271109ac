package githubforge

import (
	"context"
	"net/http"
	"strconv"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/promote"
)

// Merge merges the pull request if its head is still headSHA, with a merge
// commit where the repository allows one, else as a squash, else a rebase.
// GitHub's refusal (reviews, checks, a moved head) is returned in its own
// words.
func (f *Forge) Merge(ctx context.Context, repo promote.Repo, number int, headSHA string) (promote.PullRequest, error) {
	if err := f.noToken(); err != nil {
		return promote.PullRequest{}, err
	}
	if headSHA == "" {
		return promote.PullRequest{}, &promote.Refused{Reason: "no head commit to merge"}
	}
	r, resp, err := f.gh.Repositories.Get(ctx, repo.Owner, repo.Name)
	if err != nil {
		return promote.PullRequest{}, f.refusal("read "+repo.String(), resp, err)
	}
	_, resp, err = f.gh.PullRequests.Merge(ctx, repo.Owner, repo.Name, number, "",
		&github.PullRequestOptions{SHA: headSHA, MergeMethod: mergeMethod(r)})
	if err != nil && resp != nil && resp.Response != nil {
		switch resp.StatusCode {
		case http.StatusMethodNotAllowed, http.StatusConflict, http.StatusUnprocessableEntity:
			if m := githubMessage(err); m != "" {
				return promote.PullRequest{}, &promote.Refused{Reason: m} // GitHub's words, as the person would read them there
			}
		}
	}
	if err != nil {
		return promote.PullRequest{}, f.refusal("merge "+repo.String()+"#"+strconv.Itoa(number), resp, err)
	}
	return f.PullRequest(ctx, repo, number)
}

// mergeMethod is the first the repository allows of merge, squash, rebase;
// GitHub reports them only to those who may push, so unknown means merge
// (and GitHub's refusal, if any, says why).
func mergeMethod(r *github.Repository) string {
	switch {
	case r.AllowMergeCommit == nil || r.GetAllowMergeCommit():
		return "merge"
	case r.GetAllowSquashMerge():
		return "squash"
	case r.GetAllowRebaseMerge():
		return "rebase"
	}
	return "merge"
}
