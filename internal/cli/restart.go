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

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// restartOptions follow kubectl's RestartOptions: complete fills in what
// the argument implies, validate refuses before any connection, run acts.
// They are built per call; the parsed flags are never changed.
type restartOptions struct {
	flags   targetFlags
	dryRun  dryRun
	yes     bool
	wait    bool
	tag     string
	reason  string
	timeout time.Duration

	target appTarget  // set by complete
	set    setOptions // restart -q: a set of apps (restartset_cmd.go)
}

func (a *app) restartCommand() *cobra.Command {
	var o restartOptions
	cmd := &cobra.Command{
		Use:   "restart APP | NAMESPACE/APP | -q QUERY",
		Short: "Rolling restart of an App's workload (re-pulls the workload template's tag)",
		Long: `Rolling restart of the App's Deployment or StatefulSet: the pod template gets the
annotations hanzo.ai/restartedAt and hanzo.ai/restartedBy, so the pods are
recreated one by one from the template and re-pull its image. That is the
declared tag once the operator has written it; while the template lags the App
spec, the template's tag is pulled (and said so). An Event records who did it.

Name the App as APP, NAMESPACE/APP or -n NAMESPACE APP; the env follows from the
namespace, and --env is needed only when the name is in several envs; --context
names its kubeconfig context (--cluster, its old name, still works and warns:
kubectl's --cluster names a kubeconfig cluster entry, not a context). The same
checks as the board's dialog run first: your login, read-only mode, the cluster
trusted in iam.clusters (pinned to its server), your IAM scope, the App and its
workload, a paused Deployment, the API server trusting the issuer (a
SelfSubjectReview) and Kubernetes RBAC (a SelfSubjectAccessReview).
--dry-run prints the plan and every check's outcome (-o json: as one object) and
exits 0 when every check could be evaluated, a refusal included ("would be
refused: ..."); it fails (exit 2) only when a check could not be. Without --yes it asks: production (main) needs the
App's name typed, other envs 'y'. --yes restarts production only when you named
it (--env main or a production namespace): driftboard never assumes production.
When stdin is not a terminal it refuses without --yes, once every other check
has passed: a refusal --yes cannot lift (no login, an expired token, a scope
that does not reach the App) is said first.

With -q it restarts every App the query selects, each exactly like a single
restart, at most --max-parallel at once; the first failure stops new starts
unless --continue-on-error. One line per App (-o json: one JSON object per
line). Without --yes it only lists what it would do, refusals included, and
exits 0 when every check could be evaluated; with it, the
exit code is 0 only when every App was restarted (and, with --wait, rolled).

It never changes a tag: tags are declared in git (the App's CR under
infra/k8s/operator/crs/ in the universe repo) and Hanzo CD reconciles them.`,
		Example: `  driftboard restart hanzo-testnet/iam
  driftboard restart iam --env main --dry-run          # every check; nothing sent
  driftboard restart iam --env main --dry-run=server   # and the patch, as a server-side dry run
  driftboard restart -n hanzo iam --context prod-eu --yes --wait
  driftboard restart -q 'flag:un-rolled env:test' --max-parallel 3 --wait --yes`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("query") {
				if !cmd.Flags().Changed("max-parallel") {
					eff, err := a.effective()
					if err != nil {
						return err
					}
					o.set.maxParallel = eff.Restart.MaxParallelOrDefault()
				}
				return a.runRestartSet(cmd.Context(), cmd.OutOrStdout(), args, &o)
			}
			if len(args) != 1 {
				return usageErr("restart takes one APP (or a set with -q QUERY)")
			}
			if err := o.complete(a, args); err != nil {
				return err
			}
			if err := o.validate(a); err != nil {
				return err
			}
			if o.dryRun.on() {
				return o.preview(cmd.Context(), a, cmd.OutOrStdout())
			}
			return o.run(cmd.Context(), a, cmd.OutOrStdout())
		},
	}
	o.flags.register(cmd)
	f := cmd.Flags()
	o.dryRun = dryRunNone
	f.Var(&o.dryRun, "dry-run", "none|client|server: client runs every check and sends nothing; server also sends the patch as a server-side dry run (--dry-run alone: client)")
	f.Lookup("dry-run").NoOptDefVal = string(dryRunClient)
	completeFixed(cmd, "dry-run", "none", "client", "server")
	f.BoolVarP(&o.yes, "yes", "y", false, "do not ask for confirmation (required when stdin is not a terminal)")
	f.BoolVar(&o.wait, "wait", false, "follow the rollout until it completes; exit 2 if it fails or --timeout passes")
	f.StringVar(&o.reason, "reason", "", "why, recorded in the Event")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this long (sync, checks and --wait)")
	f.StringVar(&o.tag, "tag", "", "refused: tags are declared in git")
	_ = f.MarkHidden("tag")
	o.set.register(cmd)
	return cmd
}

func (o *restartOptions) complete(a *app, args []string) error {
	t, err := a.newTarget(args[0], o.flags)
	o.target = t
	return err
}

// validate refuses what needs no cluster to refuse.
func (o *restartOptions) validate(a *app) error {
	if o.tag != "" {
		return model.RefuseTagChange(o.target.name, o.tag)
	}
	if o.set.output != "text" && o.set.output != "json" {
		return usageErr("-o must be text or json, not %q", o.set.output)
	}
	if o.dryRun.on() { // a dry run lists read-only among its checks
		return nil
	}
	// Read-only is the user's own switch: said first, not after a login
	// or a --yes that could never help.
	eff, err := a.effective()
	if err != nil {
		return err
	}
	if why := restartPolicy(eff).ReadOnlyRefusal(""); why != "" {
		return errors.New("refused: " + why)
	}
	// Off a terminal without --yes is refused only once the identity and
	// its scope allow the restart (run): a --yes could not help before.
	return nil
}

func (o *restartOptions) run(ctx context.Context, a *app, out io.Writer) error {
	eff, err := a.effective()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	as, err := o.actor(ctx, a)
	if err != nil {
		return err
	}
	fl, row, err := a.findApp(ctx, o.target, as)
	if err != nil {
		return err
	}
	uc := restart.New(fl, o.policy(eff))
	plan := model.PlanRestart(row)
	confirm := restart.Confirmation{Yes: o.yes, ProductionNamed: o.target.envNamed}
	if o.yes {
		if err := restart.ConfirmOne(plan, confirm); err != nil {
			return usageErr("%s", err)
		}
	}
	checked, err := uc.Check(ctx, restart.CheckInput{Row: row})
	if err != nil {
		return errors.New("refused: " + checked.Decision.Reason)
	}
	if !o.yes && !a.streams.InTerminal {
		return usageErr("refusing to restart %s without confirmation: stdin is not a terminal; pass --yes (or --dry-run to only check)", o.target.name)
	}
	errw := a.streams.Err
	fmt.Fprintln(errw, termtext.Sanitize(plan.Title()+". "+plan.Effect()+" "+checked.Decision.Reason))
	for _, w := range plan.Warnings {
		fmt.Fprintln(errw, "Warning: "+termtext.Sanitize(w))
	}
	if !o.yes {
		if confirm.Answer, err = a.ask(plan.Prompt()); err != nil {
			return err
		}
	}
	return o.restart(ctx, a, uc, restart.Input{Checked: checked, Confirm: confirm, Reason: o.reason}, out)
}

// policy is the config's switches, with --timeout bounding the rollout's follow.
func (o *restartOptions) policy(eff config.Effective) restart.Policy {
	p := restartPolicy(eff)
	p.RolloutTimeout = o.timeout
	return p
}

// actor is the IAM identity restarts are made as; none is a refusal.
func (o *restartOptions) actor(ctx context.Context, a *app) (*actor, error) {
	as, id, loggedIn, err := a.iamActor(ctx)
	switch {
	case err != nil:
		return nil, err
	case !loggedIn:
		return nil, errors.New("refused: not logged in — run 'driftboard login' (restarts are made as your IAM identity)")
	}
	if st := id.Current(); st.Err != nil {
		return nil, fmt.Errorf("refused: %w", st.Err)
	}
	return as, nil
}

// restart sends it and, with --wait, follows the rollout to its end.
func (o *restartOptions) restart(ctx context.Context, a *app, uc *restart.Restarts, in restart.Input, out io.Writer) error {
	errw := a.streams.Err
	done, err := uc.Restart(ctx, in)
	if err != nil {
		return err
	}
	res := done.Result
	fmt.Fprintln(out, termtext.Sanitize(fmt.Sprintf("%s %s/%s restarted at %s by %s", strings.ToLower(string(res.Kind)), res.Namespace, res.Name, res.At, dash(res.By))))
	if res.EventError != nil {
		fmt.Fprintln(errw, "Warning: the restart happened, but its Event was not recorded: "+termtext.Sanitize(res.EventError.Error()))
	}
	if !o.wait {
		return nil
	}
	_, err = uc.Follow(ctx, restart.FollowInput{Key: in.Checked.Key, Progress: func(v model.WorkloadView) {
		fmt.Fprintln(errw, termtext.Sanitize(fmt.Sprintf("rollout: %s, %d/%d updated, %d ready %s", dash(string(v.Rollout)), v.Updated, v.Desired, v.Ready, v.Message)))
	}})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, termtext.Sanitize(fmt.Sprintf("rollout of %s/%s complete", res.Namespace, res.Name)))
	return nil
}

// ask puts the prompt on the terminal and reads one line (end of input is
// an empty answer: no).
func (a *app) ask(prompt string) (string, error) {
	fmt.Fprint(a.streams.Err, termtext.Sanitize(prompt)+" ")
	line, err := bufio.NewReader(a.streams.In).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read answer: %w", err)
	}
	return line, nil
}
