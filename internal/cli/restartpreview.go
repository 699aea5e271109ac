package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui"
)

// preview is a dry run of one restart: the plan and every check with its
// outcome. A refusal is its answer (exit 0); only a check that could not be
// evaluated, or an App that could not be found, is an error. The server dry
// run sends its patch only when every check passes.
func (o *restartOptions) preview(ctx context.Context, a *app, out io.Writer) error {
	eff, err := a.effective()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	as, login, err := a.previewActor(ctx)
	if err != nil {
		return err
	}
	fl, row, err := a.findApp(ctx, o.target, as)
	if err != nil {
		l := restart.Checklist{login, restart.ReadOnlyCheck(o.policy(eff), ""),
			{Name: "app", State: model.CheckUnknown, Detail: "the App could not be found: " + err.Error()}}
		if werr := o.writePreview(out, nil, l, "unknown"); werr != nil {
			return werr
		}
		return fmt.Errorf("could not evaluate every check (unknown: app): %w", err)
	}
	uc := restart.New(fl, o.policy(eff))
	checked, _ := uc.Check(ctx, restart.CheckInput{Row: row}) // a refusal is in checked.Decision
	confirm := restart.Confirmation{Yes: o.yes, ProductionNamed: o.target.envNamed}
	l := checked.Checklist(o.policy(eff), confirm).Prepend(login, iamClusterCheck(eff, row.Cluster, a.servers[row.Cluster]))
	plan := checked.Plan
	says := plan.Title() + ". " + plan.Effect()
	if checked.Decision.Allowed {
		says += " " + checked.Decision.Reason
	}
	fmt.Fprintln(a.streams.Err, termtext.Sanitize(says))
	for _, w := range plan.Warnings {
		fmt.Fprintln(a.streams.Err, "Warning: "+termtext.Sanitize(w))
	}
	verdict := "allowed"
	switch {
	case len(l.Unknown()) > 0:
		verdict = "unknown"
	case l.Refusal() != "":
		verdict = "refused"
	}
	if err := o.writePreview(out, &plan, l, verdict); err != nil {
		return err
	}
	workload := fmt.Sprintf("%s %s/%s", strings.ToLower(string(row.Workload.Kind)), row.Namespace, dash(row.Workload.Name))
	say := func(s string) {
		if o.set.output != "json" {
			fmt.Fprintln(out, termtext.Sanitize(s))
		}
	}
	switch {
	case verdict == "unknown":
		return fmt.Errorf("could not evaluate every check (unknown: %s); nothing was sent", strings.Join(l.Unknown(), ", "))
	case verdict == "refused":
		say("would be refused: " + l.Refusal() + "; nothing was sent")
		return nil
	case o.dryRun == dryRunClient:
		say(fmt.Sprintf("dry run (client): every check passed for %s; nothing was sent (--dry-run=server also sends the patch as a dry run)", workload))
		return nil
	}
	res, err := uc.Restart(ctx, restart.Input{Checked: checked, DryRun: true, Reason: o.reason})
	if err != nil {
		return err
	}
	say(fmt.Sprintf("dry run (server): the API server accepted the restart of %s %s/%s; nothing was changed",
		strings.ToLower(string(res.Result.Kind)), res.Result.Namespace, res.Result.Name))
	return nil
}

// previewActor is who a preview checks as, and the login's check. Without a
// usable login the App is still read (as the kubeconfig identity, the token
// never sent) so the plan can be shown; the IAM scope then refuses.
func (a *app) previewActor(ctx context.Context) (*actor, model.Check, error) {
	as, id, loggedIn, err := a.iamActor(ctx)
	if err != nil {
		return nil, model.Check{}, err
	}
	st := id.Current()
	c := loginCheck(st, loggedIn, time.Now())
	if c.State != model.CheckPassed {
		as.session = nil
	}
	return as, c, nil
}

func loginCheck(st ui.IdentityState, loggedIn bool, now time.Time) model.Check {
	c := model.Check{Name: model.CheckLogin, State: model.CheckRefused}
	switch {
	case !loggedIn && (st.Err == nil || errors.Is(st.Err, auth.ErrNotLoggedIn)):
		c.Detail = "not logged in: run driftboard login (restarts are made as your IAM identity)"
	case errors.Is(st.Err, auth.ErrIdPUnavailable):
		c.State, c.Detail = model.CheckUnknown, "the login could not be verified: "+st.Err.Error()
	case st.Err != nil:
		c.Detail = "no usable login: " + st.Err.Error()
	case !st.LoggedIn(now):
		c.Detail = "the login has expired: run driftboard login"
	default:
		c.State = model.CheckPassed
		c.Detail = "logged in as " + st.Principal.User + " (" + st.Principal.RoleName()
		if !st.Expiry.IsZero() {
			c.Detail += ", token valid " + strings.TrimSuffix(st.Expiry.Sub(now).Round(time.Minute).String(), "0s")
		}
		c.Detail += ")"
	}
	return c
}

// iamClusterCheck is the config's side of the cluster's trust: listed in
// iam.clusters, pinned to the server this kubeconfig gives it.
func iamClusterCheck(eff config.Effective, cluster, server string) model.Check {
	c := model.Check{Name: model.CheckIAMCluster, State: model.CheckRefused}
	ok, why := eff.IAM.Trust(cluster, server)
	switch {
	case ok:
		c.State, c.Detail = model.CheckPassed, fmt.Sprintf("cluster %s is trusted in iam.clusters, pinned to its server %s", cluster, server)
	case why != "":
		c.Detail = why
	default:
		c.Detail = fmt.Sprintf("cluster %s is not listed in iam.clusters: add %s=%s (and its API server must trust the issuer)", cluster, cluster, server)
	}
	return c
}

// previewJSON is a dry run's -o json: the plan, the checks, the verdict.
type previewJSON struct {
	Plan    *previewPlan  `json:"plan"`
	Checks  []model.Check `json:"checks"`
	Verdict string        `json:"verdict"` // allowed, refused, unknown
}

type previewPlan struct {
	App       string `json:"app"`
	Cluster   string `json:"cluster"`
	Namespace string `json:"namespace"`
	Kind      string `json:"kind"`
	Workload  string `json:"workload"`
	Env       string `json:"env"`
}

func (o *restartOptions) writePreview(w io.Writer, p *model.RestartPlan, l restart.Checklist, verdict string) error {
	var pp *previewPlan
	if p != nil {
		pp = &previewPlan{App: p.App, Cluster: p.Cluster, Namespace: p.Namespace, Kind: string(p.Kind), Workload: p.Workload, Env: string(p.Env)}
	}
	if o.set.output == "json" {
		b, err := json.Marshal(previewJSON{Plan: pp, Checks: l, Verdict: verdict})
		if err != nil {
			return err
		}
		_, err = w.Write(append(termtext.JSONSafe(b), '\n'))
		return err
	}
	// Names and reasons come from the cluster: each line is sanitised.
	var lines []string
	if pp != nil {
		lines = append(lines, "Plan:", "  App:       "+pp.App, "  Cluster:   "+pp.Cluster, "  Namespace: "+pp.Namespace,
			"  Workload:  "+pp.Kind+" "+dash(pp.Workload), "  Env:       "+pp.Env)
	}
	lines = append(lines, "Checks:")
	for _, c := range l {
		lines = append(lines, "  "+c.Line())
	}
	var b strings.Builder
	for _, line := range lines {
		b.WriteString(termtext.Sanitize(line) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
