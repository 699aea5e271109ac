package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// setOptions are the flags of `restart -q`, a restart of a set of apps.
type setOptions struct {
	query           string
	maxParallel     int
	continueOnError bool
	output          string
}

func (o *setOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.query, "query", "q", "", "restart every App this query selects (the board's query language; app:NAME for exact names, free text is fuzzy)")
	// 0 here: the default is the config's (read in RunE), so help must not print "(default 3)" beside it.
	f.IntVar(&o.maxParallel, "max-parallel", 0, "with -q: at most this many restarts (and, with --wait, rollouts) at once (default: restart.maxParallel in the config, else 3)")
	f.BoolVar(&o.continueOnError, "continue-on-error", false, "with -q: keep starting restarts after one fails")
	f.StringVarP(&o.output, "output", "o", "text", "with -q or --dry-run: text|json (-q: one JSON object per line)")
	completeFixed(cmd, "output", "text", "json")
}

// setLine is one line of `restart -q` output, per app.
type setLine struct {
	Cluster   string `json:"cluster"`
	Namespace string `json:"namespace"`
	App       string `json:"app"`
	Env       string `json:"env"`
	// Status: would-restart, refused (before anything was sent), restarted,
	// failed, not-started.
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Kind   string `json:"kind,omitempty"`
	At     string `json:"restartedAt,omitempty"`
	By     string `json:"restartedBy,omitempty"`
	Rolled bool   `json:"rolledOut,omitempty"`
}

func (a *app) validateSet(args []string, o *restartOptions) (query.Query, error) {
	switch {
	case len(args) > 0:
		return query.Query{}, usageErr("restart -q selects the apps; do not also name one (%q)", args[0])
	case o.flags.env != "" || o.flags.cluster != "":
		return query.Query{}, usageErr("restart -q: put the env and cluster in the query (env:test cluster:prod-eu), not --env/--cluster")
	case o.tag != "":
		return query.Query{}, model.RefuseTagChange("the set", o.tag)
	case o.set.maxParallel < 1:
		return query.Query{}, usageErr("--max-parallel must be at least 1, not %d", o.set.maxParallel)
	case o.set.output != "text" && o.set.output != "json":
		return query.Query{}, usageErr("-o must be text or json, not %q", o.set.output)
	case strings.TrimSpace(o.set.query) == "":
		return query.Query{}, usageErr("-q must select something; an empty query would restart every App")
	}
	q, err := query.Parse(o.set.query)
	if err != nil {
		return query.Query{}, usageErr("-q: %v", err)
	}
	return q, nil
}

func (a *app) runRestartSet(ctx context.Context, out io.Writer, args []string, o *restartOptions) error {
	q, err := a.validateSet(args, o)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	eff, err := a.effective()
	if err != nil {
		return err
	}
	policy := o.policy(eff)
	if why := policy.ReadOnlyRefusal(""); why != "" { // the user's own switch, said before a login is asked for
		return errors.New("refused: " + why)
	}
	// A preview (a dry run, or no --yes off a terminal) says what would be
	// refused, the login's refusal among the others; a restart needs one.
	preview := o.dryRun.on() || !o.yes && !a.streams.InTerminal
	var as *actor
	if preview {
		var login model.Check
		if as, login, err = a.previewActor(ctx); err != nil {
			return err
		}
		fmt.Fprintln(a.streams.Err, termtext.Sanitize(login.Line()))
	} else if as, err = o.actor(ctx, a); err != nil { // the single restart's identity rules
		return err
	}
	fl, err := a.openFleet(ctx, fleetRequest{as: as, noRegistry: true})
	if err != nil {
		return err
	}
	uc := restart.New(fl, policy)
	snap, syncErr := a.waitSnapshot(ctx, fl)
	if snap == nil {
		return syncErr
	}
	by, _ := query.ParseSortKey("name")
	rows := query.Select(snap.Rows(), q, by)
	if len(rows) == 0 {
		return joinErr(fmt.Errorf("no App matches %q (on the namespaces you may read)", o.set.query), syncErr)
	}
	var mu sync.Mutex
	var writeErr error
	write := func(l setLine) {
		mu.Lock()
		defer mu.Unlock()
		if writeErr == nil {
			writeErr = writeSetLine(out, o.set.output, l)
		}
	}
	byKey := map[model.Key]*model.AppView{}
	lineOf := func(k model.Key, status, detail string) setLine {
		row := byKey[k]
		return setLine{Cluster: row.Cluster, Namespace: row.Namespace, App: row.App, Env: string(row.Env),
			Status: status, Detail: detail, Kind: string(row.Workload.Kind)}
	}

	// Every check first, so the refusals are known before anything is sent.
	// Only a terminal can ask; elsewhere --yes is the confirmation, and it
	// covers production only when the query names it.
	typed := !o.yes && !o.dryRun.on() && a.streams.InTerminal
	confirm := restart.Confirmation{Yes: !typed, ProductionNamed: q.NamesEnv(model.EnvMain)}
	var checks []restart.Checked
	for _, row := range rows {
		byKey[row.Key()] = row
		c, _ := uc.Check(ctx, restart.CheckInput{Row: row}) // a refusal is in c.Decision
		checks = append(checks, c)
	}
	plan := restart.PlanSet(checks, confirm)
	var unknown []string
	for _, c := range checks {
		if names := restart.Checklist(c.Decision.Checks).Unknown(); len(names) > 0 {
			unknown = append(unknown, fmt.Sprintf("%s (%s)", c.Key, strings.Join(names, ", ")))
		}
	}
	undecided := func() error {
		if len(unknown) == 0 {
			return nil
		}
		return joinErr(fmt.Errorf("could not evaluate every check (unknown: %s); nothing was sent", strings.Join(unknown, "; ")), syncErr)
	}
	for _, c := range checks {
		if why, no := plan.Refused[c.Key]; no {
			write(lineOf(c.Key, "refused", why))
		} else if o.dryRun == dryRunClient || !o.yes && !o.dryRun.on() {
			write(lineOf(c.Key, "would-restart", c.Plan.Title()+". "+c.Plan.Effect()))
		}
	}
	if o.dryRun == dryRunClient { // every check run; nothing is sent
		fmt.Fprintf(a.streams.Err, "dry run (client): %s would be restarted, %d would be refused; nothing was sent\n", restart.CountApps(len(plan.Allowed)), len(plan.Refused))
		return undecided()
	}
	if preview && !o.dryRun.on() {
		hint := ""
		if len(plan.Allowed) > 0 {
			hint = " (pass --yes to restart them)"
		}
		fmt.Fprintf(a.streams.Err, "%s would be restarted, %d would be refused; nothing was changed%s\n", restart.CountApps(len(plan.Allowed)), len(plan.Refused), hint)
		return undecided()
	}
	if typed && len(plan.Allowed) > 0 {
		if confirm.Answer, err = a.ask(fmt.Sprintf("%d refused; type %q to restart %s:", len(plan.Refused), plan.Answer, restart.CountApps(len(plan.Allowed)))); err != nil {
			return err
		}
	}

	var sum restart.Summary
	if len(plan.Allowed) > 0 {
		res, err := uc.RestartSet(ctx, restart.SetInput{Plan: plan, Confirm: confirm, MaxParallel: o.set.maxParallel,
			ContinueOnError: o.set.continueOnError, DryRun: o.dryRun == dryRunServer, Reason: o.reason, Follow: o.wait,
			Report: func(u restart.Update) {
				switch u.Status {
				case restart.Done:
					l := lineOf(u.Key, "restarted", "")
					l.At, l.By, l.Rolled = u.Result.At, u.Result.By, o.wait && !o.dryRun.on()
					if o.dryRun.on() {
						l.Detail = "dry run (server): accepted by the API server; nothing was changed"
					}
					if u.Result.EventError != nil {
						fmt.Fprintf(a.streams.Err, "Warning: %s restarted, but its Event was not recorded: %s\n", u.Key, termtext.Sanitize(u.Result.EventError.Error()))
					}
					write(l)
				case restart.Failed, restart.NotStarted:
					write(lineOf(u.Key, string(u.Status), u.Detail))
				}
			}})
		var ce *restart.ConfirmError
		if errors.As(err, &ce) {
			return err
		}
		sum = res.Summary
	}
	fmt.Fprintf(a.streams.Err, "%d restarted, %d failed, %d not started, %d refused\n", sum.Done, sum.Failed, sum.NotStarted, len(plan.Refused))
	if writeErr != nil {
		return fmt.Errorf("write output: %w", writeErr)
	}
	if !sum.OK() || len(plan.Refused) > 0 && !o.dryRun.on() {
		why := "not every App was restarted"
		if sum.Stopped != "" {
			why += "; new starts stopped: " + sum.Stopped
		}
		return joinErr(errors.New(why), syncErr)
	}
	return nil
}

func writeSetLine(w io.Writer, format string, l setLine) error {
	if format == "json" {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		_, err = w.Write(append(termtext.JSONSafe(b), '\n'))
		return err
	}
	// Names, users and error texts come from the cluster: hostile text.
	line := fmt.Sprintf("%-13s %s/%s/%s", l.Status, l.Cluster, l.Namespace, l.App)
	if l.At != "" {
		line += " at " + l.At + " by " + dash(l.By)
	}
	if l.Rolled {
		line += ", rollout complete"
	}
	if l.Detail != "" {
		line += ": " + l.Detail
	}
	_, err := fmt.Fprintln(w, termtext.Sanitize(line))
	return err
}
