package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

type restartOptions struct {
	target  appTarget
	dryRun  bool
	yes     bool
	wait    bool
	tag     string
	reason  string
	timeout time.Duration
}

func (a *app) restartCommand() *cobra.Command {
	var o restartOptions
	cmd := &cobra.Command{
		Use:   "restart APP --env main|test|dev",
		Short: "Rolling restart of an App's workload (re-pulls the workload template's tag)",
		Long: `Rolling restart of the App's Deployment or StatefulSet: the pod template gets the
annotations hanzo.ai/restartedAt and hanzo.ai/restartedBy, so the pods are
recreated one by one from the template and re-pull its image. That is the
declared tag once the operator has written it; while the template lags the App
spec, the template's tag is pulled (and said so). An Event records who did it.

The same checks as the board's dialog run first: read-only mode, your IAM scope
(when logged in), the App and its workload, a paused Deployment, and Kubernetes
RBAC (a SelfSubjectAccessReview). --env is required: driftboard never assumes
production. Without --yes it asks: production (main) needs the App's name typed,
other envs 'y'. When stdin is not a terminal it refuses without --yes.

It never changes a tag: tags are declared in git (the App's CR under
infra/k8s/operator/crs/ in the universe repo) and Hanzo CD reconciles them.`,
		Example: `  driftboard restart iam --env test
  driftboard restart iam --env main --dry-run
  driftboard restart iam --env main --cluster prod-eu --yes --wait`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.target.name = args[0]
			return a.runRestart(cmd.Context(), cmd.OutOrStdout(), o)
		},
	}
	o.target.register(cmd)
	f := cmd.Flags()
	f.BoolVar(&o.dryRun, "dry-run", false, "run every check and a server-side dry run; change nothing")
	f.BoolVarP(&o.yes, "yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	f.BoolVar(&o.wait, "wait", false, "follow the rollout until it completes; exit 2 if it fails or --timeout passes")
	f.StringVar(&o.reason, "reason", "", "why, recorded in the Event")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this long (sync, checks and --wait)")
	f.StringVar(&o.tag, "tag", "", "refused: tags are declared in git")
	_ = f.MarkHidden("tag")
	return cmd
}

func (a *app) runRestart(ctx context.Context, out io.Writer, o restartOptions) error {
	t := &o.target
	if err := t.validate(); err != nil {
		return err
	}
	if o.tag != "" {
		return model.RefuseTagChange(t.name, o.tag)
	}
	if !o.dryRun && !o.yes && !a.streams.InTerminal {
		return usageErr("refusing to restart %s without confirmation: stdin is not a terminal; pass --yes (or --dry-run to only check)", t.name)
	}
	t.narrow(&a.opts)
	eff, err := a.effective()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	as, id, loggedIn, err := a.iamActor(ctx)
	if err != nil {
		return err
	}
	if !loggedIn {
		return errors.New("refused: not logged in — run 'driftboard login' (restarts are made as your IAM identity)")
	}
	if st := id.Current(); st.Err != nil {
		return fmt.Errorf("refused: %w", st.Err)
	}
	fl, err := a.openFleet(ctx, as)
	if err != nil {
		return err
	}
	r := guardedRestarter{fleet: fl, cfg: eff}
	snap, syncErr := a.waitSnapshot(ctx, fl)
	if snap == nil {
		return syncErr
	}
	row, err := t.find(snap.Rows)
	if err != nil {
		return joinErr(err, syncErr)
	}
	key := row.Key()
	d := r.CheckRestart(ctx, key)
	if !d.Allowed {
		return errors.New("refused: " + d.Reason)
	}
	errw := a.streams.Err
	plan := model.PlanRestart(row)
	fmt.Fprintln(errw, plan.Title()+". "+plan.Effect()+" "+d.Reason)
	for _, w := range plan.Warnings {
		fmt.Fprintln(errw, "warning: "+w)
	}
	if o.dryRun {
		res, err := fl.RestartWith(ctx, key, kube.RestartOptions{DryRun: true, Reason: o.reason})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "dry run: the API server accepted the restart of %s %s/%s; nothing was changed\n",
			strings.ToLower(string(res.Kind)), res.Namespace, res.Name)
		return nil
	}
	if !o.yes {
		if err := a.confirm(plan); err != nil {
			return err
		}
	}
	res, err := fl.RestartWith(ctx, key, kube.RestartOptions{Reason: o.reason})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s %s/%s restarted at %s by %s\n", strings.ToLower(string(res.Kind)), res.Namespace, res.Name, res.At, dash(res.By))
	if res.EventError != nil {
		fmt.Fprintln(errw, "warning: the restart happened, but its Event was not recorded: "+res.EventError.Error())
	}
	if !o.wait {
		return nil
	}
	err = fl.WaitRollout(ctx, key, func(v model.WorkloadView) {
		fmt.Fprintf(errw, "rollout: %s, %d/%d updated, %d ready %s\n", dash(string(v.Rollout)), v.Updated, v.Desired, v.Ready, v.Message)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "rollout of %s/%s complete\n", res.Namespace, res.Name)
	return nil
}

// confirm asks on the terminal what the plan asks: the App's name typed in
// production, 'y' elsewhere. Anything else (or end of input) is "no".
func (a *app) confirm(p model.RestartPlan) error {
	fmt.Fprint(a.streams.Err, p.Prompt()+" ")
	line, err := bufio.NewReader(a.streams.In).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read answer: %w", err)
	}
	if !p.Confirmed(line) {
		return errors.New("not confirmed; nothing was changed")
	}
	return nil
}
