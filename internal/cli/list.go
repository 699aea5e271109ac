package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

type listOptions struct {
	output    string
	query     string
	sortBy    string
	noHeaders bool
	failOn    string
	// failOnUnknown also fails when something of a row was not observed
	// (its Verdict has unknowns): a release not checked, a workload not
	// readable or not listed in time.
	failOnUnknown bool
	timeout       time.Duration
	contexts      []string // get's --context/--cluster, when --context did not choose
	// promotions adds the rows' promotions in flight (set by run, once the
	// fleet is open).
	promotions func([]*model.AppView) []*model.AppView
}

func (a *app) listCommand() *cobra.Command {
	var o listOptions
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "Print the board once, after the caches sync (for scripts and CI)",
		Long: `Print every App once, after every cluster's caches have synced and the release
checks have answered (or --timeout passed). Data goes to stdout, diagnostics to
stderr.

Only checked facts count: a row whose release was not checked (not read in
time, rate-limited, failed, not looked up) has its release flags withheld, and
stderr says how many rows wait on release checks.

A row's SEV is the row as a whole, as the board's DRIFT column shows it:
red for red drift, red health, failing pods or a workload that should exist
and does not; yellow for yellow drift or health or another problem; n/a (?)
when nothing wrong was seen but something was not (a release not checked, a
workload not readable); ok only when everything was observed and is well.
JSON has it as "verdict" beside the drift's own "severity" and "health".

Exit codes: 0 no row at or above --fail-on; 1 a row at or above --fail-on
(or, with --fail-on-unknown, a row with anything not observed); 2 an error
(cluster unreachable, App CRD missing, not allowed, bad flags). With several clusters, rows of the reachable ones are printed and the
exit code is still 2.`,
		Example: `  driftboard list
  driftboard list -o wide -A
  driftboard list -q 'sev:red env:main' -o json | jq '.apps[].id'
  driftboard list -o name -q flag:un-rolled      # NAMESPACE/APP a line, as restart takes it
  driftboard list -o jsonpath='{range .apps[*]}{.namespace}/{.app} {.declaredTag}{"\n"}{end}'
  driftboard list -o custom-columns=APP:.app,NS:.namespace,SEV:.verdict,DRIFT:.drift.severity --sort-by .namespace
  driftboard list --context prod-eu,prod-us --fail-on yellow || echo "drift!"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runList(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "table", "output format: table|wide|json|yaml|name|jsonpath=TEMPLATE|custom-columns=SPEC (paths over -o json's document; a column's over one row, apps[] item)")
	f.StringVarP(&o.query, "query", "q", "", "filter in the board's query language, e.g. 'sev:red env:main ns:tenant-*'")
	f.StringVar(&o.sortBy, "sort-by", "severity", "sort by severity|name|env|namespace|drift-age, or by a JSONPath over each row, e.g. .namespace")
	f.StringVar(&o.sortBy, "sort", "severity", "the same as --sort-by")
	_ = f.MarkHidden("sort")
	f.BoolVar(&o.noHeaders, "no-headers", false, "print no header line (table, wide, custom-columns)")
	f.StringVar(&o.failOn, "fail-on", "red", "exit 1 when a row's SEV is at least: red|yellow|none (none: never)")
	f.BoolVar(&o.failOnUnknown, "fail-on-unknown", false, "exit 1 also when something of a row was not observed: its release not checked (not read, or checks off; its release flags are withheld), its workload not readable or not listed")
	f.DurationVar(&o.timeout, "timeout", 60*time.Second, "give up waiting for clusters and release checks after this long")
	completeFixed(cmd, "output", "table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=")
	completeFixed(cmd, "sort-by", query.SortWords.Names()...)
	completeFixed(cmd, "fail-on", "red", "yellow", "none")
	return cmd
}

func completeFixed(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// failThreshold parses --fail-on: the lowest mark that fails; -1 never.
func failThreshold(s string) (int, error) {
	switch s {
	case "red":
		return int(model.MarkRed), nil
	case "yellow":
		return int(model.MarkYellow), nil
	case "none":
		return -1, nil
	}
	return 0, usageErr("--fail-on must be red, yellow or none, not %q", s)
}

// failed reports whether the rows fail the run: a mark at or above the
// threshold, or, with onUnknown, anything not observed.
func failed(rows []*model.AppView, threshold int, onUnknown bool) bool {
	for _, r := range rows {
		v := r.Verdict()
		if threshold >= 0 && int(v.Mark) >= threshold || onUnknown && v.Unknown != 0 {
			return true
		}
	}
	return false
}

func (a *app) runList(ctx context.Context, cmd *cobra.Command, o listOptions) error {
	spec, err := parseOutput(o.output, "table", "wide", "json", "yaml")
	if err != nil {
		return err
	}
	threshold, err := failThreshold(o.failOn)
	if err != nil {
		return err
	}
	q, err := query.Parse(o.query)
	if err != nil {
		return usageErr("-q: %v", err)
	}
	by, err := parseSortBy(o.sortBy)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	fl, err := a.openFleet(ctx, fleetRequest{contexts: o.contexts, noRegistry: true}) // digests are detail-only
	if err != nil {
		return err
	}
	snap, syncErr := a.waitSnapshot(ctx, fl)
	if snap == nil {
		return syncErr
	}
	o.promotions = func(rows []*model.AppView) []*model.AppView { return a.withPromotions(ctx, fl, rows) }
	return a.printList(cmd.OutOrStdout(), snap, syncErr, q, by, spec, threshold, o)
}

// printList prints the synced snapshot's rows that q selects and decides
// the exit: syncErr, else a row's mark at or above threshold (or, with
// --fail-on-unknown, anything not observed), else nil.
func (a *app) printList(out io.Writer, snap *store.Snapshot, syncErr error, q query.Query, by sortSpec, spec outputSpec, threshold int, o listOptions) error {
	rows, err := by.selectRows(snap.Rows(), q)
	if err != nil {
		return err
	}
	if o.promotions != nil {
		rows = o.promotions(rows)
	}
	if err := a.printRows(out, rows, spec, o.noHeaders); err != nil {
		return err
	}
	warnUncheckedReleases(a.streams.Err, rows, snap.Releases, a.now())
	warnUnreadableWorkloads(a.streams.Err, rows)
	if syncErr != nil {
		return syncErr
	}
	if failed(rows, threshold, o.failOnUnknown) {
		return errDriftFound
	}
	return nil
}

// printRows prints list's rows (and get's, without an App) in spec's format.
func (a *app) printRows(out io.Writer, rows []*model.AppView, spec outputSpec, noHeaders bool) error {
	var err error
	switch spec.format {
	case "json":
		err = writeJSON(out, newListOutput(rows))
	case "yaml":
		err = writeYAML(out, newListOutput(rows))
	case "name":
		err = writeNames(out, rows)
	case "jsonpath":
		err = writeJSONPath(out, spec.path, newListOutput(rows))
	default:
		switch {
		case len(rows) == 0:
			fmt.Fprintln(a.streams.Err, "No apps found.")
		case spec.format == "custom-columns":
			err = writeColumns(out, spec.columns, rows, !noHeaders)
		default:
			err = writeTableHeaders(textOut(out), rows, spec.format == "wide", a.now(), !noHeaders)
		}
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

func (a *app) now() time.Time { return time.Now() }
