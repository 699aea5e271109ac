package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

type listOptions struct {
	output string
	query  string
	sortBy string
	failOn string
	// failOnUnknown also fails when a row's release was not checked or its
	// workload may not be read.
	failOnUnknown bool
	timeout       time.Duration
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

Exit codes: 0 no drift at or above --fail-on; 1 drift found at or above
--fail-on (or, with --fail-on-unknown, a release not checked or a workload not readable); 2 an error (cluster unreachable, App CRD missing, not allowed, bad
flags). With several clusters, rows of the reachable ones are printed and the
exit code is still 2.`,
		Example: `  driftboard list
  driftboard list -o wide -A
  driftboard list -q 'sev:red env:main' -o json | jq '.apps[].id'
  driftboard list --context prod-eu,prod-us --fail-on yellow || echo "drift!"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runList(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "table", "output format: table|wide|json|yaml")
	f.StringVarP(&o.query, "query", "q", "", "filter in the board's query language, e.g. 'sev:red env:main ns:tenant-*'")
	f.StringVar(&o.sortBy, "sort", "severity", "sort by severity|name|env|namespace|drift-age")
	f.StringVar(&o.failOn, "fail-on", "red", "exit 1 when a row's drift is at least: red|yellow|none (none: never)")
	f.BoolVar(&o.failOnUnknown, "fail-on-unknown", false, "exit 1 also when a row's release was not checked (not read, or checks off; its release flags are withheld) or its workload may not be read")
	f.DurationVar(&o.timeout, "timeout", 60*time.Second, "give up waiting for clusters and release checks after this long")
	completeFixed(cmd, "output", "table", "wide", "json", "yaml")
	completeFixed(cmd, "sort", "severity", "name", "env", "namespace", "drift-age")
	completeFixed(cmd, "fail-on", "red", "yellow", "none")
	return cmd
}

func completeFixed(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// failThreshold parses --fail-on; -1 means never fail on drift.
func failThreshold(s string) (int, error) {
	switch s {
	case "red":
		return drift.SeverityRed.Rank(), nil
	case "yellow":
		return drift.SeverityYellow.Rank(), nil
	case "none":
		return -1, nil
	}
	return 0, usageErr("--fail-on must be red, yellow or none, not %q", s)
}

func (a *app) runList(ctx context.Context, cmd *cobra.Command, o listOptions) error {
	switch o.output {
	case "table", "wide", "json", "yaml":
	default:
		return usageErr("-o must be table, wide, json or yaml, not %q", o.output)
	}
	threshold, err := failThreshold(o.failOn)
	if err != nil {
		return err
	}
	q, err := model.ParseQuery(o.query)
	if err != nil {
		return usageErr("-q: %v", err)
	}
	by, err := model.ParseSortKey(o.sortBy)
	if err != nil {
		return usageErr("--sort: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	snap, syncErr := a.syncedSnapshot(ctx, fleetRequest{noRegistry: true}) // digests are detail-only
	if snap == nil {
		return syncErr
	}
	rows := model.Select(snap.Rows(), q, by)
	out := cmd.OutOrStdout()
	switch o.output {
	case "json":
		err = writeJSON(out, newListOutput(rows))
	case "yaml":
		err = writeYAML(out, newListOutput(rows))
	default:
		if len(rows) == 0 {
			fmt.Fprintln(a.streams.Err, "No apps found.")
		} else {
			err = writeTable(textOut(out), rows, o.output == "wide", a.now())
		}
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	unchecked := warnUncheckedReleases(a.streams.Err, rows, snap.Releases, a.now())
	unchecked += warnUnreadableWorkloads(a.streams.Err, rows)
	if syncErr != nil {
		return syncErr
	}
	if o.failOnUnknown && unchecked > 0 {
		return errDriftFound
	}
	if threshold >= 0 {
		for _, r := range rows {
			if r.Drift.Severity.Rank() >= threshold {
				return errDriftFound
			}
		}
	}
	return nil
}

func (a *app) now() time.Time { return time.Now() }
