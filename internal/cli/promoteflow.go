package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// promoteFleet is what a promotion needs of the clusters.
type promoteFleet interface {
	PromotionLookup(model.Key) ([]*model.CDApplication, string)
	promote.CD
}

// promoteDeps are a promotion's parts, composed by run (the tests compose
// their own: a real API server's fleet, the demo's GitHub).
type promoteDeps struct {
	fleet    promoteFleet
	row      *model.AppView
	forge    promote.Forge
	repoOf   promote.RepoParser
	override *promote.FileOverride
	budgets  model.PromotionBudgets
	asker    string
	reread   func() *model.AppView  // the row as observed now
	changed  func() <-chan struct{} // the fleet's change signal
	poll     time.Duration          // how often the pull request is read again (0: 5s)
}

// promoteReport is -o json's object, and each of -o jsonl's.
type promoteReport struct {
	Plan      *model.PromotionPlan `json:"plan,omitempty"`
	PR        *promote.PullRequest `json:"pullRequest,omitempty"`
	Sync      *promote.SyncResult  `json:"sync,omitempty"`
	Promotion *model.Promotion     `json:"promotion,omitempty"`
}

func (o *promoteOptions) promote(ctx context.Context, a *app, d promoteDeps, out io.Writer) error {
	apps, tracking := d.fleet.PromotionLookup(d.row.Key())
	p, err := promote.Plan(ctx, d.forge, d.repoOf, promote.Request{Row: d.row, To: o.to, Asker: d.asker,
		Lookup: promote.Lookup{Applications: apps, TrackingID: tracking, Override: d.override}})
	if err != nil {
		return refusedErr(err)
	}
	rep := promoteReport{Plan: &p.PromotionPlan}
	if o.dryRun {
		return o.emit(out, rep, planText(p.PromotionPlan), true)
	}
	if o.output == "text" {
		fmt.Fprint(a.streams.Err, termtext.SanitizeLines(planText(p.PromotionPlan)))
	}
	c, err := o.confirm(a, p.PromotionPlan)
	if err != nil {
		return err
	}
	pr, err := promote.Propose(ctx, d.forge, p, c)
	if err != nil {
		return refusedErr(err)
	}
	rep.PR = &pr
	verb := "opened"
	if pr.Reused {
		verb = "already open, reused"
	}
	if err := o.emit(out, rep, fmt.Sprintf("pull request #%d %s: %s\n", pr.Number, verb, pr.URL), false); err != nil {
		return err
	}
	prom := promote.Started(p.Key, p.To, pr, time.Now())
	if o.merge {
		if pr, err = o.mergeWhenPassed(ctx, d, pr, p.PromotionPlan, c); err != nil {
			return err
		}
		rep.PR = &pr
		if err := o.emit(out, rep, fmt.Sprintf("merged as %s\n", pr.MergeSHA), false); err != nil {
			return err
		}
	}
	if o.sync {
		res, err := promote.Sync(ctx, d.fleet, p.PromotionPlan, pr, c, false)
		if err != nil {
			return refusedErr(err)
		}
		rep.Sync = &res
		how := fmt.Sprintf("CD asked to sync %s to %s as %s\n", res.Application, model.ShortRevision(res.Revision), res.By)
		if res.Refresh {
			how = fmt.Sprintf("CD asked to refresh %s (it syncs by itself)\n", res.Application)
		}
		if err := o.emit(out, rep, how, false); err != nil {
			return err
		}
	}
	if o.wait {
		return o.follow(ctx, d, p, pr.Repo, prom, rep, out)
	}
	if o.output == "json" {
		return o.emit(out, rep, "", true)
	}
	return nil
}

// confirm is --yes (production only when its env was named) or the
// answer typed: y, or on production the App's name.
func (o *promoteOptions) confirm(a *app, p model.PromotionPlan) (promote.Confirmation, error) {
	switch {
	case o.yes && p.MustType && !o.target.envNamed:
		return promote.Confirmation{}, usageErr("%s is production: --yes promotes it only with --env main or its namespace named", p.Key.Name)
	case o.yes:
		return promote.Confirmation{Yes: true, Typed: p.Key.Name}, nil
	case !a.streams.InTerminal:
		return promote.Confirmation{}, usageErr("refusing to promote %s without confirmation: stdin is not a terminal; pass --yes (or --dry-run to see the plan)", p.Key.Name)
	}
	prompt := fmt.Sprintf("Open this pull request as %s? [y/N]", p.Login)
	if p.MustType {
		prompt = fmt.Sprintf("%s is production. Type its name to open this pull request as %s:", p.Key.Name, p.Login)
	}
	answer, err := a.ask(prompt)
	if err != nil {
		return promote.Confirmation{}, err
	}
	answer = strings.TrimSpace(answer)
	return promote.Confirmation{Yes: strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes"), Typed: answer}, nil
}

// mergeWhenPassed merges once the checks passed; with --wait it waits for
// pending checks first.
func (o *promoteOptions) mergeWhenPassed(ctx context.Context, d promoteDeps, pr promote.PullRequest, p model.PromotionPlan, c promote.Confirmation) (promote.PullRequest, error) {
	for o.wait && pr.State == promote.PROpen && pr.Checks == promote.ChecksPending {
		select {
		case <-ctx.Done():
			return pr, fmt.Errorf("pull request #%d's checks still pending: %w", pr.Number, ctx.Err())
		case <-time.After(d.pollEvery()):
		}
		var err error
		if pr, err = d.forge.PullRequest(ctx, pr.Repo, pr.Number); err != nil {
			return pr, err
		}
	}
	merged, err := promote.Merge(ctx, d.forge, pr, p, c)
	return merged, refusedErr(err)
}

// follow prints each state until live, an exit, or the timeout.
func (o *promoteOptions) follow(ctx context.Context, d promoteDeps, p promote.Planned, repo promote.Repo, prom model.Promotion, rep promoteReport, out io.Writer) error {
	var last string
	for {
		next, err := promote.Follow(ctx, d.forge, repo, prom, promote.Observed{Row: d.reread(), CD: cdApplication(d.fleet, p.PromotionPlan), Digest: p.Digest}, d.budgets, time.Now())
		if err != nil {
			return err
		}
		prom = next
		if line := stateLine(prom); line != last {
			last = line
			rep.Promotion = &prom
			if o.output != "json" {
				if err := o.emit(out, rep, line, false); err != nil {
					return err
				}
			}
		}
		switch {
		case prom.Step == model.PromotionLive:
			if o.output == "json" {
				return o.emit(out, rep, "", true)
			}
			return nil
		case prom.Step.Exit():
			if o.output == "json" {
				_ = o.emit(out, rep, "", true)
			}
			return fmt.Errorf("promotion stopped: %s: %s", model.PromotionStepWords.Of(prom.Step).Text, prom.Why)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("promotion not live (%s): %w", model.PromotionStepWords.Of(prom.Step).Text, ctx.Err())
		case <-d.changed():
		case <-time.After(d.pollEvery()):
		}
	}
}

func (d promoteDeps) pollEvery() time.Duration {
	if d.poll > 0 {
		return d.poll
	}
	return 5 * time.Second
}

// emit writes text, or with -o jsonl the report as one line; -o json
// writes only when final.
func (o *promoteOptions) emit(out io.Writer, rep promoteReport, text string, final bool) error {
	switch {
	case o.output == "text":
		_, err := fmt.Fprint(out, termtext.SanitizeLines(text))
		return err
	case o.output == "jsonl" || final:
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	}
	return nil
}

// refusedErr says a refusal as one.
func refusedErr(err error) error {
	var r *promote.Refused
	if errors.As(err, &r) && !strings.HasPrefix(err.Error(), "refused") {
		return fmt.Errorf("refused: %w", err)
	}
	return err
}
