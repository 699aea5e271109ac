package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// setFollow is what a set's --sync and --wait need of the clusters
// (composed by runSet; the tests compose their own).
type setFollow struct {
	fleet   promoteFleet
	budgets model.PromotionBudgets
	reread  func(model.Key) *model.AppView // a row as observed now
	changed func() <-chan struct{}
	poll    time.Duration
}

// syncSet asks CD to apply the set's merge commit: once per Application,
// however many of the set's Apps it syncs. The set's confirmation covers
// every App. A refusal is said and the other Applications still asked.
func (o *promoteOptions) syncSet(ctx context.Context, f setFollow, plans []model.PromotionPlan, pr promote.PullRequest, out io.Writer) ([]promote.SyncResult, error) {
	var results []promote.SyncResult
	var errs []error
	asked := map[string]bool{}
	for _, p := range plans {
		where := p.Key.Cluster + " " + p.Application
		if asked[where] {
			continue
		}
		asked[where] = true
		res, err := promote.Sync(ctx, f.fleet, p, pr, promote.Confirmation{Yes: true, Typed: p.Key.Name}, false)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.Key, err))
			continue
		}
		results = append(results, res)
		how := fmt.Sprintf("CD asked to sync %s on %s to %s as %s\n", res.Application, p.Key.Cluster, model.ShortRevision(res.Revision), res.By)
		if res.Refresh {
			how = fmt.Sprintf("CD asked to refresh %s on %s (it syncs by itself)\n", res.Application, p.Key.Cluster)
		}
		if o.output == "text" {
			fmt.Fprint(out, termtext.SanitizeLines(how))
		}
	}
	return results, refusedErr(errors.Join(errs...))
}

// followSet follows every App of the set until each is live or stopped,
// one line per state change; it fails when any stopped or time ran out.
func (o *promoteOptions) followSet(ctx context.Context, f setFollow, forge promote.Forge, plans []model.PromotionPlan, pr promote.PullRequest, out io.Writer) ([]model.Promotion, error) {
	proms := make([]model.Promotion, len(plans))
	last := make([]string, len(plans))
	for i, p := range plans {
		proms[i] = promote.Started(p.Key, p.To, pr, time.Now())
	}
	for {
		done, stopped := 0, []string{}
		for i, p := range plans {
			if proms[i].Step == model.PromotionLive || proms[i].Step.Exit() {
				done++
				continue
			}
			next, err := promote.Follow(ctx, forge, pr.Repo, proms[i], promote.Observed{Row: f.reread(p.Key), CD: cdApplication(f.fleet, p), Digest: p.Digest}, f.budgets, time.Now())
			if err != nil {
				return proms, err
			}
			proms[i] = next
			if line := stateLine(next); line != last[i] && o.output == "text" {
				last[i] = line
				fmt.Fprint(out, termtext.SanitizeLines(line))
			}
		}
		for _, p := range proms {
			if p.Step.Exit() {
				stopped = append(stopped, fmt.Sprintf("%s %s", p.Key.Name, model.PromotionStepWords.Of(p.Step).Text))
			}
		}
		if done == len(plans) {
			if len(stopped) > 0 {
				return proms, fmt.Errorf("promotion stopped: %v", stopped)
			}
			return proms, nil
		}
		select {
		case <-ctx.Done():
			return proms, fmt.Errorf("the set is not live (%d of %d done): %w", done, len(plans), ctx.Err())
		case <-f.changed():
		case <-time.After(promoteDeps{poll: f.poll}.pollEvery()):
		}
	}
}

// cdApplication is the Application a plan's file is synced by, as the
// fleet sees it now; nil when none.
func cdApplication(fl promoteFleet, p model.PromotionPlan) *model.CDApplication {
	apps, _ := fl.PromotionLookup(p.Key)
	for _, a := range apps {
		if a.Group+"/"+a.Namespace+"/"+a.Name == p.Application {
			return a
		}
	}
	return nil
}
