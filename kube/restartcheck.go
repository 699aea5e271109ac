package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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

func refuse(format string, args ...any) (model.Decision, target) {
	return model.Decision{Reason: fmt.Sprintf(format, args...)}, target{}
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
	if f.opts.ReadOnly {
		return model.Decision{Reason: model.ReadOnlyBlock("")}, target{}
	}
	ctx, p, iam, err := f.principal(ctx)
	if err != nil {
		return refuse("Your IAM login could not be verified: %s", errText(err))
	}
	c := f.byName[key.Cluster]
	if iam {
		var labels map[string]string
		if c != nil && p != nil && !p.SuperAdmin {
			labels = c.namespaceLabels(ctx, key.Namespace)
		}
		if d := p.AuthorizeNamespace(key.Namespace, labels); !d.Allowed {
			return d, target{}
		}
	}
	switch {
	case c == nil:
		return refuse("Cluster %q is not on the board.", key.Cluster)
	case iam && !c.clients.Identity.IAM:
		return refuse("%s", c.clients.Identity.RestartRefusal(key.Cluster))
	case !c.isSynced():
		return refuse("Cluster %s is still syncing; try again when it is live.", key.Cluster)
	case c.conn.state().Phase != model.ConnLive:
		// A cache that once synced is stale while the watch is down: no
		// decision is made from it.
		return refuse("Cluster %s is %s; its cached state may be stale, so nothing is decided from it. Try again when it is live.",
			key.Cluster, c.conn.state().Phase)
	}
	app, wl, ok := c.observe(key)
	if !ok && c.isChartRow(key) {
		return refuse("%s/%s is on the Helm chart plane (no App CR): only an App's workload is restarted; its Deployment belongs to CD, which may revert a patch.", key.Namespace, key.Name)
	}
	if !ok {
		return refuse("App %s/%s is not on cluster %s.", key.Namespace, key.Name, key.Cluster)
	}
	if why := model.WorkloadRestartBlock(key, app.Role, wl); why != "" {
		return model.Decision{Reason: why}, target{}
	}
	t := target{c: c, key: key, kind: wl.Kind, ctx: ctx, uid: wl.UID, restartedAt: wl.TemplateAnnotations[model.RestartedAtAnnotation]}
	if iam {
		// Who acts is what the API server says, asked with the very token
		// the restart will carry.
		u, err := Review(ctx, c.clients)
		switch {
		case apierrors.IsUnauthorized(err):
			return refuse("The API server of cluster %s rejected your IAM token (401); it does not trust the issuer. See the %s.", key.Cluster, model.TrustModelDoc)
		case err != nil:
			return refuse("Could not ask cluster %s who you are: %s", key.Cluster, errText(err))
		case u.Username == "":
			return refuse("Cluster %s did not say who you are; nothing is done without knowing.", key.Cluster)
		}
		t.actor = &model.Actor{Username: u.Username, Groups: u.Groups, Display: firstNonEmptyString(p.User, p.Email)}
		t.who = u.Username
	} else {
		t.who = c.whoAmI(ctx)
	}
	allowed, why, err := c.canPatch(ctx, t.resource(), key.Namespace, key.Name)
	switch {
	case err != nil:
		return refuse("Could not check Kubernetes permissions for %s: %s", t, errText(err))
	case !allowed:
		msg := fmt.Sprintf("Kubernetes RBAC does not allow %s to patch %s in namespace %s.", t.identity(), t.resource(), key.Namespace)
		if why != "" {
			msg += " (" + why + ")"
		}
		return model.Decision{Reason: msg, Actor: t.actor}, target{}
	}
	return model.Decision{Allowed: true, Reason: fmt.Sprintf("%s may restart %s.", t.identity(), t), Actor: t.actor}, t
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
