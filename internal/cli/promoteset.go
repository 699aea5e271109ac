package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// setReport is -o json's object for a set.
type setReport struct {
	Plans   []model.PromotionPlan `json:"plans"`
	Refused []promote.SetRefusal  `json:"refused"`
	PR      *promote.PullRequest  `json:"pullRequest,omitempty"`
	Syncs   []promote.SyncResult  `json:"syncs,omitempty"`
	// Promotions: with --wait, each App's promotion as it ended.
	Promotions []model.Promotion `json:"promotions,omitempty"`
}

// runSet is promote -q: the Apps the query selects in one pull request.
func (o *promoteOptions) runSet(ctx context.Context, a *app, args []string, out io.Writer) error {
	switch {
	case len(args) > 0:
		return usageErr("promote -q selects the apps; do not also name one (%q)", args[0])
	case o.flags.env != "" || o.flags.cluster != "":
		return usageErr("promote -q: put the env and cluster in the query (env:test cluster:prod-eu), not --env/--cluster")
	case o.sync && !o.merge:
		return usageErr("promote -q --sync syncs the set's merge commit: it needs --merge")
	case o.dryRun && (o.merge || o.sync):
		return usageErr("--dry-run writes nothing: it does not combine with --merge or --sync")
	case o.to == "":
		return usageErr("promote needs --to TAG or --to latest")
	case o.output == "jsonl":
		return usageErr("promote -q prints text or json")
	}
	q, err := query.Parse(o.query)
	if err != nil {
		return usageErr("-q %q: %v", o.query, err)
	}
	eff, err := a.effective()
	if err != nil {
		return err
	}
	if why := restartPolicy(eff).ReadOnlyRefusal(""); why != "" && !o.dryRun {
		return errors.New("refused: " + why)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var as *actor // --sync acts as the IAM identity, as a restart does
	if o.sync && !o.dryRun {
		if as, err = (&restartOptions{}).actor(ctx, a); err != nil {
			return err
		}
	}
	fl, err := a.openFleet(ctx, fleetRequest{noRegistry: true, as: as})
	if err != nil {
		return err
	}
	snap, syncErr := a.waitSnapshot(ctx, fl)
	if snap == nil {
		return syncErr
	}
	by, _ := query.ParseSortKey("name")
	rows := query.Select(snap.Rows(), q, by)
	if len(rows) == 0 {
		return joinErr(fmt.Errorf("no App matches %q (on the namespaces you may read)", o.query), syncErr)
	}
	forge, repoOf, err := a.forge(eff)
	if err != nil {
		return err
	}
	var reqs []promote.Request
	for _, r := range rows {
		if why := restartPolicy(eff).ReadOnlyRefusal(r.Cluster); why != "" && o.sync && !o.dryRun {
			return errors.New("refused: --sync: " + why) // said before anything is written
		}
		apps, tracking := fl.PromotionLookup(r.Key())
		reqs = append(reqs, promote.Request{Row: r, To: o.to, Lookup: promote.Lookup{Applications: apps, TrackingID: tracking, Override: fileOverride(eff, r)}})
	}
	follow := setFollow{fleet: fl, budgets: promoteBudgets(eff), changed: fl.Changed,
		reread: func(k model.Key) *model.AppView { return findRowByKey(fl.Snapshot().Rows(), k) }}
	return o.proposeSet(ctx, a, q, reqs, forge, repoOf, follow, out)
}

// proposeSet plans the set, prints it and, once confirmed, opens (and with
// --merge merges) its pull request.
func (o *promoteOptions) proposeSet(ctx context.Context, a *app, q query.Query, reqs []promote.Request, forge promote.Forge, repoOf promote.RepoParser, f setFollow, out io.Writer) error {
	s, err := promote.PlanSet(ctx, forge, repoOf, reqs)
	if err != nil {
		return refusedErr(err)
	}
	rep := setReport{Plans: s.Plans, Refused: s.Refused}
	if o.output == "text" {
		fmt.Fprint(out, termtext.SanitizeLines(setText(s)))
	}
	if o.dryRun {
		return o.emitSet(out, rep)
	}
	c := promote.Confirmation{Yes: o.yes}
	switch {
	case o.yes && s.MustType && !q.NamesEnv(model.EnvMain):
		return usageErr("the set has a production App: --yes promotes it only when the query names env:main")
	case o.yes:
		c.Typed = s.SetWords()
	case !a.streams.InTerminal:
		return usageErr("refusing to promote without confirmation: stdin is not a terminal; pass --yes (or --dry-run to see the plan)")
	default:
		prompt := "Open this pull request? [y/N]"
		if s.MustType {
			prompt = fmt.Sprintf("The set has a production App. Type %q to open this pull request:", s.SetWords())
		}
		answer, err := a.ask(prompt)
		if err != nil {
			return err
		}
		answer = strings.TrimSpace(answer)
		c = promote.Confirmation{Yes: strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes"), Typed: answer}
	}
	pr, err := promote.ProposeSet(ctx, forge, s, c)
	if err != nil {
		return refusedErr(err)
	}
	rep.PR = &pr
	if o.output == "text" {
		fmt.Fprint(out, termtext.SanitizeLines(fmt.Sprintf("pull request #%d: %s\n", pr.Number, pr.URL)))
	}
	if o.merge {
		merged, err := o.mergeWhenPassed(ctx, promoteDeps{forge: forge}, pr, model.PromotionPlan{Key: model.Key{Name: s.SetWords()}}, promote.Confirmation{Yes: true, Typed: s.SetWords()})
		if err != nil {
			return err
		}
		rep.PR = &merged
		if o.output == "text" {
			fmt.Fprint(out, termtext.SanitizeLines(fmt.Sprintf("merged as %s\n", merged.MergeSHA)))
		}
		pr = merged
	}
	if o.sync {
		if rep.Syncs, err = o.syncSet(ctx, f, s.Plans, pr, out); err != nil {
			_ = o.emitSet(out, rep)
			return err
		}
	}
	if o.wait {
		if rep.Promotions, err = o.followSet(ctx, f, forge, s.Plans, pr, out); err != nil {
			_ = o.emitSet(out, rep)
			return err
		}
	}
	return o.emitSet(out, rep)
}

func (o *promoteOptions) emitSet(out io.Writer, rep setReport) error {
	if o.output != "json" {
		return nil
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}

// setText is a set's plan: each App's diff, then the refused.
func setText(s promote.PlannedSet) string {
	var b strings.Builder
	if len(s.Plans) > 0 {
		fmt.Fprintf(&b, "One pull request on %s (base %s), branch %s, as GitHub user %s:\n", s.Change.Repo, s.Change.Base, s.Change.Branch, s.Plans[0].Login)
	}
	for _, p := range s.Plans {
		fmt.Fprintf(&b, "  %s: %s → %s  %s line %d\n    -%s\n    +%s\n", p.Key, dash(p.From), p.To, p.Path, p.Line, p.Before, p.After)
	}
	for _, r := range s.Refused {
		fmt.Fprintf(&b, "  refused %s: %s\n", r.Key, r.Reason)
	}
	return b.String()
}
