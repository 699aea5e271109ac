package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// appTarget names one App the way a person does: name, env, and when that
// is ambiguous, the cluster (and -n).
type appTarget struct {
	name, env, cluster string
}

func (a *app) getCommand() *cobra.Command {
	var t appTarget
	var output string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "get APP --env main|test|dev",
		Short: "Print one App with every detail: flags, the four tags, rollout, last restart",
		Example: `  driftboard get iam --env main
  driftboard get iam --env test -o json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			t.name = args[0]
			if err := t.validate(); err != nil {
				return err
			}
			t.narrow(&a.opts)
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			fl, err := a.openFleet(ctx, nil) // reading acts as the kubeconfig identity
			if err != nil {
				return err
			}
			snap, syncErr := a.waitSnapshot(ctx, fl)
			if snap == nil {
				return syncErr
			}
			row, err := t.find(snap.Rows)
			if err != nil {
				return joinErr(err, syncErr)
			}
			row = a.withDigests(ctx, fl, row)
			out := cmd.OutOrStdout()
			switch output {
			case "json":
				err = writeJSON(out, row)
			case "yaml":
				err = writeYAML(out, row)
			default:
				err = writeDetail(out, row, a.now())
			}
			if err != nil {
				return fmt.Errorf("write output: %w", err)
			}
			return nil
		},
	}
	t.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json|yaml")
	cmd.Flags().DurationVar(&timeout, "timeout", 60*time.Second, "give up waiting for the clusters after this long")
	completeFixed(cmd, "output", "text", "json", "yaml")
	return cmd
}

func (t *appTarget) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&t.env, "env", "", "environment of the App: main|test|dev (required; never defaults to production)")
	cmd.Flags().StringVar(&t.cluster, "cluster", "", "kubeconfig context of the App, when several are watched")
	completeFixed(cmd, "env", "main", "test", "dev")
	_ = cmd.RegisterFlagCompletionFunc("cluster", func(c *cobra.Command, args []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		names, _ := kube.ContextNames(c.Flag("kubeconfig").Value.String())
		return names, cobra.ShellCompDirectiveNoFileComp
	})
}

func (t *appTarget) validate() error {
	switch _, ok := model.ParseEnv(t.env); {
	case t.env == "":
		return usageErr("--env is required (main, test or dev); driftboard never assumes production")
	case !ok:
		return usageErr("--env must be main, test or dev, not %q", t.env)
	}
	if name, tag, ok := strings.Cut(t.name, ":"); ok {
		return model.RefuseTagChange(name, tag)
	}
	if !isDNS1123Label(t.name) {
		return usageErr("%q is not an App name (lowercase letters, digits and '-', at most 63)", t.name)
	}
	return nil
}

func isDNS1123Label(s string) bool { return len(validation.IsDNS1123Label(s)) == 0 }

// narrow limits what is watched to what can hold the target: its cluster
// when given, and the one namespace of the test and dev envs.
func (t *appTarget) narrow(o *globalOptions) {
	if t.cluster != "" && len(o.contexts) == 0 && !o.allContexts {
		o.contexts = []string{t.cluster}
	}
	// Production also holds every tenant namespace, so it is not narrowed.
	if env := model.Env(t.env); len(o.namespaces) == 0 && env != "" && !env.IsProduction() {
		o.namespaces = env.Namespaces()
	}
}

// find picks the one row named by the target; several matches are an error
// that lists them, so the user adds --cluster or -n.
func (t *appTarget) find(rows []*model.AppView) (*model.AppView, error) {
	var hits []*model.AppView
	for _, r := range rows {
		if r.App == t.name && string(r.Env) == t.env && (t.cluster == "" || r.Cluster == t.cluster) {
			hits = append(hits, r)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		where := "env " + t.env
		if t.cluster != "" {
			where += " of cluster " + t.cluster
		}
		return nil, fmt.Errorf("no App %q in %s (on the namespaces you may read)", t.name, where)
	}
	var names []string
	for _, h := range hits {
		names = append(names, h.Cluster+"/"+h.Namespace)
	}
	return nil, fmt.Errorf("the App %q in env %s is in several places: %s; choose one with --cluster and -n",
		t.name, t.env, strings.Join(names, ", "))
}

// writeDetail prints one row for a person: the four tags side by side, every
// flag with its message, the rollout, conditions and the last restart.
func writeDetail(w io.Writer, r *model.AppView, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, dash(v)) }
	p("App:", fmt.Sprintf("%s (%s, role %s)", r.App, dash(r.Kind), dash(r.Role)))
	p("ID:", r.ID)
	p("Cluster:", r.Cluster)
	p("Namespace:", fmt.Sprintf("%s (env %s, tenant %s)", r.Namespace, dash(r.Env), dash(r.Tenant)))
	p("Severity:", sevWord(r.Drift.Severity)+driftAge(r, now))
	p("Health:", fmt.Sprintf("%s, phase %s", dash(string(r.Health)), dash(r.Phase)))
	p("Image:", r.Registry)
	fmt.Fprintln(tw, "Tags:")
	p("  declared (App spec)", r.DeclaredTag)
	p("  workload spec", r.Workload.SpecTag)
	p("  running (pods)", r.RunningTag)
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
	wl := r.Workload
	if r.Release.TagDigest != "" {
		p("Tag digest:", r.Release.TagDigest)
	}
	label := "Running digests:"
	for _, d := range wl.Digests { // one a line: they are long
		p(label, d)
		label = ""
	}
	if note := digestCheck(r).Note(); note != "" {
		p("Digests:", note)
	}
	if wl.Found {
		p("Workload:", fmt.Sprintf("%s %s, %d/%d ready, %d updated, rollout %s", wl.Kind, wl.Name, wl.Ready, wl.Desired, wl.Updated, dash(string(wl.Rollout))))
		if wl.Message != "" {
			p("  why:", wl.Message)
		}
	} else {
		p("Workload:", "not found")
	}
	if wl.RestartedAt != "" {
		p("Last restart:", fmt.Sprintf("%s by %s", wl.RestartedAt, dash(wl.RestartedBy)))
	}
	fmt.Fprintln(tw, "Drift:")
	if len(r.Drift.Flags) == 0 {
		fmt.Fprintln(tw, "  none\t")
	}
	for _, f := range r.Drift.Flags {
		fmt.Fprintf(tw, "  %s %s\t%s\n", f.Severity, f.Kind, f.Message)
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
	if r.Stale {
		p("Note:", "the cluster's watch is down; this row is not live")
	}
	return tw.Flush()
}

func driftAge(r *model.AppView, now time.Time) string {
	if r.DriftSince.IsZero() || len(r.Drift.Flags) == 0 {
		return ""
	}
	return ", drifting for " + since(r.DriftSince, now)
}

func joinErr(err, also error) error {
	if also == nil {
		return err
	}
	return fmt.Errorf("%w (also: %v)", err, also)
}
