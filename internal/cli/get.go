package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

func (a *app) getCommand() *cobra.Command {
	var f targetFlags
	var output, sortBy string
	var noHeaders bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "get [APP | NAMESPACE/APP]",
		Short: "Print one App with every detail (flags, the four tags, rollout, last restart); without one, list",
		Long: `Print one App with every detail. Name it as APP, NAMESPACE/APP or -n NAMESPACE APP;
the env follows from the namespace, and --env is needed only when the name is in
several envs. --context names its kubeconfig context when several are watched
(--cluster, its old name, still works and warns: kubectl's --cluster names a
kubeconfig cluster entry, not a context).

Without an App, as kubectl's get, it prints the table of every App (of --env and
--context when given), like 'driftboard list' but always exiting 0 on drift.`,
		Example: `  driftboard get hanzo/iam
  driftboard get iam --env test -o json
  driftboard get --env test -o name
  driftboard get hanzo/iam -o jsonpath='{.runningTag}'`,
		Args:              getArgs,
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			spec, err := parseOutput(output, "text", "json", "yaml") // before connecting: a script asking for "jsn" gets no text
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return a.getList(cmd, f, listOptions{output: output, sortBy: sortBy, noHeaders: noHeaders, failOn: "none", timeout: timeout})
			}
			if _, err := parseSortBy(sortBy); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			fl, row, err := a.readApp(ctx, args[0], f)
			if err != nil {
				return err
			}
			row = a.withDigests(ctx, fl, row)
			row = a.withPromotions(ctx, fl, []*model.AppView{row})[0]
			withEvents := readEvents(ctx, fl, row)
			out := cmd.OutOrStdout()
			switch spec.format {
			case "json":
				err = writeJSON(out, withEvents)
			case "yaml":
				err = writeYAML(out, withEvents)
			case "name", "custom-columns":
				err = a.printRows(out, []*model.AppView{row}, spec, noHeaders)
			case "jsonpath":
				err = writeJSONPath(out, spec.path, withEvents)
			default:
				if err = writeDetail(textOut(out), row, a.now()); err == nil {
					err = writeEvents(textOut(out), withEvents, a.now())
				}
			}
			if err != nil {
				return fmt.Errorf("write output: %w", err)
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json|yaml|name|jsonpath=TEMPLATE|custom-columns=SPEC (text: the detail; without an App, the table)")
	cmd.Flags().StringVar(&sortBy, "sort-by", "severity", "without an App: as list's --sort-by")
	cmd.Flags().BoolVar(&noHeaders, "no-headers", false, "print no header line (the table, custom-columns)")
	cmd.Flags().DurationVar(&timeout, "timeout", 60*time.Second, "give up waiting for the clusters after this long")
	completeFixed(cmd, "output", "text", "json", "yaml", "name", "jsonpath=", "custom-columns=")
	completeFixed(cmd, "sort-by", query.SortWords.Names()...)
	return cmd
}

// getArgs: get takes one App, or none to list.
func getArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return oneApp(cmd, args)
	}
	return nil
}

// getList is get without an App: list's table (text) or document, of the
// rows of --env and --cluster, exiting 0 whatever the drift.
func (a *app) getList(cmd *cobra.Command, f targetFlags, o listOptions) error {
	if o.output == "text" {
		o.output = "table"
	}
	var q []string
	if f.env != "" {
		env, ok := model.ParseEnv(f.env)
		if !ok {
			return usageErr("--env must be main, test or dev, not %q", f.env)
		}
		q = append(q, "env:"+string(env))
	}
	cluster, err := a.targetCluster(f)
	if err != nil {
		return err
	}
	if cluster != "" {
		o.contexts = []string{cluster}
	}
	o.query = strings.Join(q, " ")
	return a.runList(cmd.Context(), cmd, o)
}

// writeDetail prints one row for a person: the four tags side by side, every
// flag with its message, the rollout, conditions and the last restart.
func writeDetail(w io.Writer, r *model.AppView, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, termtext.Sanitize(dash(v))) }
	p("App:", fmt.Sprintf("%s (%s, role %s)", r.App, dash(r.Kind), dash(r.Role)))
	p("ID:", r.ID)
	p("Cluster:", r.Cluster)
	p("Namespace:", fmt.Sprintf("%s (env %s, tenant %s)", r.Namespace, dash(r.Env), dash(r.Tenant)))
	p("Severity:", sevCell(r)+driftAge(r, now))
	p("Health:", fmt.Sprintf("%s, phase %s", model.HealthWords.Of(r.Health).Text, dash(r.Phase)))
	p("Image:", r.Registry)
	fmt.Fprintln(tw, "Tags:")
	p("  declared (App spec)", r.DeclaredTag)
	spec, running := r.Workload.SpecTag, r.RunningTag
	if r.RunningUnknown() { // not listed yet, or unreadable: unknown, not none
		spec, running = "?", "?"
	}
	p("  workload spec", spec)
	p("  running (pods)", running)
	latest := r.LatestTag
	if r.Release.URL != "" {
		latest += "   release " + r.Release.URL
	}
	p("  latest release", latest)
	rel := string(r.Release.State)
	if r.Release.Detail != "" {
		rel += " (" + r.Release.Detail + ")"
	}
	p("Release check:", rel)
	if r.Promotion != nil {
		p("Promotion:", promotionDetail(r.Promotion, now))
	}
	wl := r.Workload
	if r.Release.TagDigest != "" {
		p("Tag digest:", r.Release.TagDigest)
	} else if r.Release.DigestNote != "" { // e.g. "registry host not allowed: …"
		p("Tag digest:", r.Release.DigestNote)
	}
	label := "Running digests:"
	for _, d := range wl.Digests { // one a line: they are long
		p(label, d)
		label = ""
	}
	if wl.DigestsNote != "" { // no pods, or pods without a digest: which was seen
		if len(wl.Digests) == 0 {
			p(label, "none: "+wl.DigestsNote)
		} else {
			p(label, wl.DigestsNote)
		}
	}
	if note := digestCheck(r).NotCompared(); note != "" {
		p("Digests:", note)
	}
	if note := digestCheck(r).Note(); note != "" {
		p("Digests:", note)
	}
	switch wl.Presence() {
	case model.WorkloadFound:
		p("Workload:", fmt.Sprintf("%s %s, %d/%d ready, %d updated, rollout %s", wl.Kind, wl.Name, wl.Ready, wl.Desired, wl.Updated, dash(string(wl.Rollout))))
		if wl.Message != "" {
			p("  why:", wl.Message)
		}
	case model.WorkloadUnreadable:
		p("Workload:", wl.Unreadable+"; health unknown")
	case model.WorkloadPending:
		p("Workload:", wl.Pending+"; health and running tag unknown")
	case model.WorkloadNoneByDesign:
		p("Workload:", fmt.Sprintf("none by design (role %s: %s)", dash(r.Role), wl.None))
	default:
		p("Workload:", "not found")
	}
	if g := r.Git; g.State != "" {
		p("Git:", model.GitWords(g))
		if g.Application != "" {
			p("  revision", g.Revision)
			p("  last sync", model.LastSyncWords(g.LastSync))
		}
		if next := model.GitNextStep(r); next != "" {
			p("  next step", next)
		}
	}
	if u := r.Upgrade; u != nil {
		p("Upgrade:", u.Words())
		for _, h := range u.History {
			p("", fmt.Sprintf("%s %s %s %s", dash(h.At), dash(h.Outcome), dash(h.Image), h.Message))
		}
	}
	if wl.RestartedAt != "" {
		p("Last restart:", fmt.Sprintf("%s by %s", wl.RestartedAt, dash(wl.RestartedBy)))
	}
	fmt.Fprintln(tw, "Drift:")
	if len(r.Drift.Flags) == 0 {
		words := noFlagWords(r)
		if words == "none" {
			words += "\t" // a cell, as before: the same bytes
		}
		fmt.Fprintln(tw, "  "+words)
	}
	for _, f := range r.Drift.Flags {
		fmt.Fprintf(tw, "  %s\t%s\n", termtext.Sanitize(fmt.Sprint(f.Severity, " ", model.FlagWords.Of(f.Kind).Text)), termtext.Sanitize(f.Message))
	}
	for _, pr := range r.Problems {
		p("Problem:", pr.Text)
	}
	for _, c := range r.Conditions {
		p("Condition:", strings.TrimSpace(fmt.Sprintf("%s=%s %s %s", c.Type, c.Status, c.Reason, c.Message)))
	}
	if len(r.Endpoints) > 0 {
		p("Endpoints:", strings.Join(r.Endpoints, " "))
	}
	if r.Offline {
		p("Note:", "the cluster's watch is down; this row is not live")
	}
	return tw.Flush()
}

func driftAge(r *model.AppView, now time.Time) string {
	if len(r.Drift.Flags) == 0 {
		return ""
	}
	if r.DriftSince == nil {
		return ", drifting since ?"
	}
	return ", drifting for " + since(r.DriftSince, now)
}

func joinErr(err, also error) error {
	if also == nil {
		return err
	}
	return fmt.Errorf("%w (also: %v)", err, also)
}

// noFlagWords is "none" for a row without drift flags, unless some flags
// were not decided: then it says which and why.
func noFlagWords(r *model.AppView) string {
	var unknown []string
	switch {
	case r.WaitsOnWorkload():
		unknown = append(unknown, "un-rolled and floating-running unknown (the workload is not listed yet)")
	case r.RunningUnknown():
		unknown = append(unknown, "un-rolled and floating-running unknown (the workload may not be read)")
	}
	if r.ReleaseFlagsUnchecked() {
		unknown = append(unknown, "no-release, zero-assets and stale not checked (release "+string(r.Release.State)+")")
	}
	if len(unknown) == 0 {
		return "none"
	}
	return "none found; " + strings.Join(unknown, "; ")
}
