package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// planText is what a promotion will do, as the dialog shows it: the App,
// from → to, where it is written, the one-line diff, the pull request and
// who it is opened as.
func planText(p model.PromotionPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Promote %s/%s on %s (env %s): %s → %s\n", p.Key.Namespace, p.Key.Name, p.Key.Cluster, p.Env, dash(p.From), p.To)
	if p.NotesURL != "" {
		fmt.Fprintf(&b, "  release notes  %s\n", p.NotesURL)
	}
	fmt.Fprintf(&b, "  repository     %s, base branch %s\n", p.Repo, p.Base)
	fmt.Fprintf(&b, "  file           %s (found through %s)\n", p.Path, p.Found)
	fmt.Fprintf(&b, "  diff           @@ line %d @@\n                 -%s\n                 +%s\n", p.Line, p.Before, p.After)
	if p.Quoted {
		fmt.Fprintf(&b, "                 (quoted so %s stays a string, not a number or a boolean)\n", p.To)
	}
	fmt.Fprintf(&b, "  branch         %s\n", p.Branch)
	fmt.Fprintf(&b, "  pull request   %s\n", p.Title)
	fmt.Fprintf(&b, "  acting as      GitHub user %s", p.Login)
	if p.Asker != "" {
		fmt.Fprintf(&b, ", asked by %s", p.Asker)
	}
	b.WriteString("\n")
	switch {
	case p.Application == "":
		b.WriteString("  CD             no Application named: the config's promote.files gave the file\n")
	case p.Automated:
		fmt.Fprintf(&b, "  CD             %s syncs by itself once merged (--sync asks it to refresh)\n", p.Application)
	default:
		fmt.Fprintf(&b, "  CD             %s syncs by hand: --sync asks it to apply the merge\n", p.Application)
	}
	return b.String()
}

// stateLine is one state of a promotion followed: the step, its age and
// why it is late or stopped.
func stateLine(p model.Promotion) string {
	s := fmt.Sprintf("%s: %s", p.Key.Name, model.PromotionStepWords.Of(p.Step).Text)
	switch {
	case p.Step == model.PromotionOpen && p.Checks != "":
		s += " (checks " + p.Checks + ")"
	case p.Step == model.PromotionMerged && p.MergeSHA != "":
		s += " (" + model.ShortRevision(p.MergeSHA) + ")"
	case p.Step == model.PromotionLive:
		s += fmt.Sprintf(" (lead time %s)", p.LeadTime.Round(time.Second))
	}
	if p.Late != "" {
		s += " — late: " + p.Late
	}
	if p.Why != "" {
		s += " — " + p.Why
	}
	return s + "\n"
}

// withPromotions is rows with their promotions in flight, read from the
// open pull requests (one list per repository) when a GitHub token is at
// hand; without one, rows as they are and nothing asked of GitHub.
func (a *app) withPromotions(ctx context.Context, fl promoteFleet, rows []*model.AppView) []*model.AppView {
	eff, err := a.effective()
	if err != nil {
		return rows
	}
	forge, repoOf, err := a.forge(eff)
	if err != nil || (a.forgeFor == nil && !forgeHasToken(forge)) {
		return rows
	}
	return promotionsOnRows(ctx, forge, repoOf, fl, rows, promoteBudgets(eff))
}

func forgeHasToken(f promote.Forge) bool {
	gh, ok := f.(*githubforge.Forge)
	return ok && gh.TokenSource() != ""
}

// promotionsOnRows is rows, each with its promotion in flight if it has
// one (a copy of the row; the given rows are not changed).
func promotionsOnRows(ctx context.Context, forge promote.Forge, repoOf promote.RepoParser, fl promoteFleet, rows []*model.AppView, b model.PromotionBudgets) []*model.AppView {
	found, _ := promote.FindInFlight(ctx, forge, repoOf, rows, applicationsOf(fl), b, time.Now())
	if len(found) == 0 {
		return rows
	}
	out := make([]*model.AppView, len(rows))
	for i, r := range rows {
		out[i] = r
		if p, ok := found[r.Key()]; ok {
			cp := *r
			cp.Promotion = &p
			out[i] = &cp
		}
	}
	return out
}

// promotionDetail is get's line for a promotion in flight.
func promotionDetail(p *model.Promotion, now time.Time) string {
	s := fmt.Sprintf("%s to %s, pull request #%d %s", model.PromotionStepWords.Of(p.Step).Text, p.To, p.PR, p.URL)
	if at := p.At(p.Step); !at.IsZero() {
		s += fmt.Sprintf(" (since %s)", now.Sub(at).Round(time.Second))
	}
	if p.Late != "" {
		s += "; late: " + p.Late
	}
	return s
}
