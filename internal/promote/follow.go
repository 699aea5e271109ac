package promote

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Observed is what the clusters show of a promotion at one moment.
type Observed struct {
	Row    *model.AppView       // nil when the row is not on the board
	CD     *model.CDApplication // the Application that syncs the file, nil when none does
	Digest string               // the release's digest, "" when not read
}

// Follow reads the pull request again and returns the promotion's next
// state from it and what the clusters show.
func Follow(ctx context.Context, f Forge, repo Repo, p model.Promotion, o Observed, b model.PromotionBudgets, now time.Time) (model.Promotion, error) {
	pr, err := f.PullRequest(ctx, repo, p.PR)
	if err != nil {
		return p, fmt.Errorf("read pull request #%d on %s: %w", p.PR, repo, err)
	}
	return model.FollowPromotion(p, model.PromotionFacts{PR: Facts(pr), CD: o.CD, Row: o.Row, Digest: o.Digest}, b, now), nil
}

// Facts is a pull request as the model reads it.
func Facts(pr PullRequest) model.PullRequestFacts {
	return model.PullRequestFacts{Number: pr.Number, URL: pr.URL, State: string(pr.State), Checks: string(pr.Checks),
		MergeSHA: pr.MergeSHA, OpenedAt: pr.OpenedAt, MergedAt: pr.MergedAt, ClosedAt: pr.ClosedAt}
}

// Started is the promotion a pull request opened: its first state.
func Started(key model.Key, to string, pr PullRequest, now time.Time) model.Promotion {
	return model.FollowPromotion(model.Promotion{Key: key, To: to}, model.PromotionFacts{PR: Facts(pr)}, model.DefaultPromotionBudgets, now)
}

// InFlight finds a row's promotion again from the open pull requests of
// repo (nothing depends on local state): the one on the row's branch
// prefix, with the tag its branch names.
func InFlight(ctx context.Context, f Forge, repo Repo, v *model.AppView) (PullRequest, string, bool, error) {
	prefix := model.PromotionBranch(v.Env, v.App, "")
	prs, err := f.OpenPullRequests(ctx, repo, prefix)
	if err != nil {
		return PullRequest{}, "", false, fmt.Errorf("list open pull requests on %s: %w", repo, err)
	}
	for _, pr := range prs {
		// gateway-worker's branches start with gateway's prefix too: the
		// title names the App.
		if tag, ok := strings.CutPrefix(pr.Branch, prefix); ok && tag != "" && !strings.Contains(tag, "/") && strings.HasPrefix(pr.Title, v.App+": ") {
			return pr, tag, true, nil
		}
	}
	return PullRequest{}, "", false, nil
}
