package promote

import (
	"context"
	"errors"
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
	prs, err := f.OpenPullRequests(ctx, repo, model.PromotionBranch(v.Env, v.App, ""))
	if err != nil {
		return PullRequest{}, "", false, fmt.Errorf("list open pull requests on %s: %w", repo, err)
	}
	pr, tag, ok := promotionOf(prs, v)
	return pr, tag, ok, nil
}

// promotionOf is the row's pull request among prs, and the tag it promotes.
func promotionOf(prs []PullRequest, v *model.AppView) (PullRequest, string, bool) {
	prefix := model.PromotionBranch(v.Env, v.App, "")
	for _, pr := range prs {
		if tag, ok := setMember(pr, v); ok {
			return pr, tag, true
		}
		// gateway-worker's branches start with gateway's prefix too: the
		// title names the App.
		if tag, ok := strings.CutPrefix(pr.Branch, prefix); ok && tag != "" && !strings.Contains(tag, "/") && strings.HasPrefix(pr.Title, v.App+": ") {
			return pr, tag, true
		}
	}
	return PullRequest{}, "", false
}

// setMember is the tag a set's pull request promotes v to, if v is one of
// its Apps: its branch is a set's of v's env (or of mixed envs) and its
// body names v's key.
func setMember(pr PullRequest, v *model.AppView) (string, bool) {
	rest, ok := strings.CutPrefix(pr.Branch, model.PromotionBranchPrefix)
	if !ok || !(strings.HasPrefix(rest, string(v.Env)+"/set-") || strings.HasPrefix(rest, "mixed/set-")) {
		return "", false
	}
	tag, ok := SetMembers(pr.Body)[v.Key()]
	return tag, ok
}

// MergedLookback is how far back promotions merged but not live are found
// again at start; a day bounds the closed pull requests read per start.
const MergedLookback = 24 * time.Hour

// FindInFlight is the state of every row's promotion in flight, found from
// the open pull requests on the promotion branch prefix, and those merged
// in the last MergedLookback whose release is not live yet: two lists per
// repository the rows' CD Applications name. apps gives a cluster's
// Applications. A repository that cannot be listed is an error for its
// rows alone, returned beside what was found.
func FindInFlight(ctx context.Context, f Forge, repoOf RepoParser, rows []*model.AppView, apps func(cluster string) []*model.CDApplication,
	b model.PromotionBudgets, now time.Time) (map[model.Key]model.Promotion, error) {
	found, _, err := FindInFlightEach(ctx, f, repoOf, rows, apps, b, now)
	return found, err
}

// FindInFlightEach is FindInFlight that also says, for each row whose repository
// could not be listed, why its promotion is unknown.
func FindInFlightEach(ctx context.Context, f Forge, repoOf RepoParser, rows []*model.AppView, apps func(cluster string) []*model.CDApplication,
	b model.PromotionBudgets, now time.Time) (map[model.Key]model.Promotion, map[model.Key]string, error) {
	type owned struct {
		row *model.AppView
		cd  *model.CDApplication
	}
	byRepo := map[Repo][]owned{}
	for _, v := range rows {
		a := applicationOf(apps(v.Cluster), v.Git.Application)
		if a == nil {
			continue
		}
		if repo, err := repoOf(a.RepoURL); err == nil {
			byRepo[repo] = append(byRepo[repo], owned{v, a})
		}
	}
	out, unknown := map[model.Key]model.Promotion{}, map[model.Key]string{}
	var errs []error
	for repo, list := range byRepo {
		prs, err := f.OpenPullRequests(ctx, repo, model.PromotionBranchPrefix)
		if err != nil {
			err = fmt.Errorf("list open pull requests on %s: %w", repo, err)
			errs = append(errs, err)
			for _, o := range list {
				unknown[o.row.Key()] = err.Error()
			}
			continue
		}
		merged, mergedErr := f.MergedPullRequests(ctx, repo, model.PromotionBranchPrefix, now.Add(-MergedLookback))
		if mergedErr != nil {
			mergedErr = fmt.Errorf("list merged pull requests on %s: %w", repo, mergedErr)
			errs = append(errs, mergedErr)
		}
		for _, o := range list {
			follow := func(pr PullRequest, tag string) model.Promotion {
				return model.FollowPromotion(model.Promotion{Key: o.row.Key(), To: tag},
					model.PromotionFacts{PR: Facts(pr), CD: o.cd, Row: o.row}, b, now)
			}
			if pr, tag, ok := promotionOf(prs, o.row); ok {
				out[o.row.Key()] = follow(pr, tag)
				continue
			}
			if mergedErr != nil {
				unknown[o.row.Key()] = mergedErr.Error()
				continue
			}
			// The newest merged one, unless it is live: then nothing is in flight.
			if pr, tag, ok := promotionOf(merged, o.row); ok {
				if p := follow(pr, tag); p.Step != model.PromotionLive {
					out[o.row.Key()] = p
				}
			}
		}
	}
	return out, unknown, errors.Join(errs...)
}
