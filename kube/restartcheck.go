package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// CheckRestart says whether a restart of the App's workload would be allowed
// and why: read-only mode, the principal's scope, the App and its workload,
// a paused Deployment, then Kubernetes RBAC (a SelfSubjectAccessReview). An
// allowed decision is bound to the workload's UID, the actor and the API
// server it saw.
func (f *Fleet) CheckRestart(ctx context.Context, key model.Key) model.Decision {
	d, t := f.decide(ctx, key)
	if d.Allowed {
		d.Bound = t.binding()
	}
	return d
}

// checklist records each check decide makes, so a dry run can list them.
type checklist []model.Check

func (l *checklist) pass(name, format string, args ...any) {
	*l = append(*l, model.Check{Name: name, State: model.CheckPassed, Detail: fmt.Sprintf(format, args...)})
}

// stop ends the decision at a check that refused (or, with
// model.CheckUnknown, could not be evaluated).
func (l *checklist) stop(name string, state model.CheckState, format string, args ...any) (model.Decision, target) {
	why := fmt.Sprintf(format, args...)
	*l = append(*l, model.Check{Name: name, State: state, Detail: why})
	return model.Decision{Reason: why, Checks: *l}, target{}
}

// principal is the IAM principal for one action and the context its
// requests go out with (one token for the whole action); iam reports whether
// an IAM scope applies at all.
func (f *Fleet) principal(ctx context.Context) (_ context.Context, p *model.Principal, iam bool, err error) {
	switch {
	case f.opts.Act != nil:
		ctx, p, err = f.opts.Act(ctx)
		return ctx, p, true, err
	case f.opts.Principal != nil:
		return ctx, f.opts.Principal(), true, nil
	}
	return ctx, nil, false, nil
}

func (f *Fleet) decide(ctx context.Context, key model.Key) (model.Decision, target) {
	var l checklist
	ctx, c, p, iam, stop := f.gate(ctx, key, "Restarts are made", &l)
	if stop != nil {
		return *stop, target{}
	}
	app, wl, ok := c.observe(key)
	if !ok && c.cd.IsChart(key) {
		return l.stop(model.CheckWorkload, model.CheckRefused, "%s/%s is on the Helm chart plane (no App CR): only an App's workload is restarted; its Deployment belongs to CD, which may revert a patch.", key.Namespace, key.Name)
	}
	if !ok {
		return l.stop(model.CheckWorkload, model.CheckRefused, "App %s/%s is not on cluster %s.", key.Namespace, key.Name, key.Cluster)
	}
	if why := model.WorkloadRestartBlock(key, app.Role, wl); why != "" {
		return l.stop(model.CheckWorkload, model.CheckRefused, "%s", why)
	}
	l.pass(model.CheckWorkload, "%s %s/%s may be restarted", wl.Kind, key.Namespace, wl.Name)
	t := target{c: c, key: key, kind: wl.Kind, ctx: ctx, uid: wl.UID, restartedAt: wl.TemplateAnnotations[model.RestartedAtAnnotation]}
	if stop := c.actor(ctx, key, p, iam, &l, &t.actor, &t.who); stop != nil {
		return *stop, target{}
	}
	allowed, why, err := c.canPatch(ctx, t.resource(), key.Namespace, key.Name)
	switch {
	case err != nil:
		return l.stop(model.CheckAccessReview, model.CheckUnknown, "Could not check Kubernetes permissions for %s: %s", t, errText(err))
	case !allowed:
		msg := fmt.Sprintf("Kubernetes RBAC does not allow %s to patch %s in namespace %s.", t.identity(), t.resource(), key.Namespace)
		if why != "" {
			msg += " (" + why + ")"
		}
		d, _ := l.stop(model.CheckAccessReview, model.CheckRefused, "%s", msg)
		d.Actor = t.actor
		return d, target{}
	}
	l.pass(model.CheckAccessReview, "Kubernetes RBAC allows %s to patch %s in namespace %s (SelfSubjectAccessReview)", t.identity(), t.resource(), key.Namespace)
	return model.Decision{Allowed: true, Reason: fmt.Sprintf("%s may restart %s.", t.identity(), t), Actor: t.actor, Checks: l}, t
}

// gate is what every action on key's App checks first, in order: read-only
// mode, the IAM login and its scope on the namespace, the cluster on the
// board, trusted for the IAM token (declared in iam.clusters) and live;
// done names the action in a refusal ("Restarts are made"). A non-nil stop
// is the decision that ended there.
func (f *Fleet) gate(ctx context.Context, key model.Key, done string, l *checklist) (_ context.Context, c *cluster, p *model.Principal, iam bool, stop *model.Decision) {
	halt := func(d model.Decision, _ target) (context.Context, *cluster, *model.Principal, bool, *model.Decision) {
		return ctx, nil, nil, false, &d
	}
	if why := (restart.Policy{ReadOnly: f.opts.ReadOnly, ReadOnlyContexts: f.opts.ReadOnlyContexts}).ReadOnlyRefusal(key.Cluster); why != "" {
		return halt(model.Decision{Reason: why, Checks: []model.Check{{Name: model.CheckReadOnly, State: model.CheckRefused, Detail: why}}}, target{})
	}
	ctx, p, iam, err := f.principal(ctx)
	if err != nil {
		return halt(l.stop(model.CheckLogin, model.CheckRefused, "Your IAM login could not be verified: %s", errText(err)))
	}
	c = f.byName[key.Cluster]
	if iam {
		var labels map[string]string
		if c != nil && p != nil && !p.SuperAdmin {
			labels = c.namespaceLabels(ctx, key.Namespace)
		}
		d := p.AuthorizeNamespace(key.Namespace, labels)
		if !d.Allowed {
			return halt(l.stop(model.CheckRole, model.CheckRefused, "%s", d.Reason))
		}
		l.pass(model.CheckRole, "%s", d.Reason)
	}
	switch {
	case c == nil:
		return halt(l.stop(model.CheckClusterLive, model.CheckRefused, "Cluster %q is not on the board.", key.Cluster))
	case c.clients.proxy != nil && c.clients.proxy.noDirect != nil:
		return halt(l.stop(model.CheckClusterLive, model.CheckRefused, "%s", c.clients.proxy.noDirect))
	case iam && !c.clients.Identity.IAM:
		return halt(l.stop(model.CheckIssuer, model.CheckRefused, "%s", c.clients.Identity.ActionRefusal(key.Cluster, done)))
	case !c.isSynced():
		return halt(l.stop(model.CheckClusterLive, model.CheckUnknown, "Cluster %s is still syncing; try again when it is live.", key.Cluster))
	case c.conn.state().Phase != model.ConnLive:
		// A cache that once synced is stale while the watch is down: no
		// decision is made from it.
		return halt(l.stop(model.CheckClusterLive, model.CheckUnknown, "Cluster %s is %s; its cached state may be stale, so nothing is decided from it. Try again when it is live.",
			key.Cluster, c.conn.state().Phase))
	}
	l.pass(model.CheckClusterLive, "cluster %s is live", key.Cluster)
	return ctx, c, p, iam, nil
}

// actor is who acts on c: under IAM, what the API server says, asked with
// the very token the action will carry (its issuer trusted); else the
// cluster's own identity. A non-nil stop is the decision that ended there.
func (c *cluster) actor(ctx context.Context, key model.Key, p *model.Principal, iam bool, l *checklist, actor **model.Actor, who *string) *model.Decision {
	if !iam {
		*who = c.whoAmI(ctx)
		return nil
	}
	halt := func(d model.Decision, _ target) *model.Decision { return &d }
	u, err := Review(ctx, c.clients)
	switch {
	case apierrors.IsUnauthorized(err):
		return halt(l.stop(model.CheckIssuer, model.CheckRefused, "The API server of cluster %s rejected your IAM token (401); it does not trust the issuer. See the %s.", key.Cluster, model.TrustModelDoc))
	case err != nil:
		return halt(l.stop(model.CheckIssuer, model.CheckUnknown, "Could not ask cluster %s who you are: %s", key.Cluster, errText(err)))
	case u.Username == "":
		return halt(l.stop(model.CheckIssuer, model.CheckUnknown, "Cluster %s did not say who you are; nothing is done without knowing.", key.Cluster))
	}
	l.pass(model.CheckIssuer, "the API server of cluster %s trusts the issuer: it says you are %s (SelfSubjectReview)", key.Cluster, u.Username)
	*actor = &model.Actor{Username: u.Username, Groups: u.Groups, Display: firstNonEmptyString(p.User, p.Email)}
	*who = u.Username
	return nil
}

func firstNonEmptyString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// identity names who acts, in sentences.
func (t target) identity() string {
	if t.actor != nil {
		return t.actor.Label()
	}
	return t.c.identity()
}

// namespaceLabels are the namespace's labels (its hanzo.ai/org names the
// tenant's real org), read now with the action's identity; nil when they
// cannot be read, and the namespace's name decides.
func (c *cluster) namespaceLabels(ctx context.Context, namespace string) map[string]string {
	ns, err := c.clients.Kube.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return ns.Labels
}

// Asker is who asks for a change, as a pull request names it: the IAM
// principal's e-mail, else its user; "" when no IAM identity acts here.
func (f *Fleet) Asker() string {
	if f.opts.Principal == nil {
		return ""
	}
	if p := f.opts.Principal(); p != nil {
		if p.Email != "" {
			return p.Email
		}
		return p.User
	}
	return ""
}
