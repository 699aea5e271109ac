package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// FieldManager is the name the board's writes carry.
const FieldManager = "driftboard"

// The restart use case's words for one patch: the fleet is its Fleet.
type (
	RestartOptions = restart.Request
	RestartResult  = restart.Result
	RefusedError   = restart.RefusedError
)

var _ restart.Fleet = (*Fleet)(nil)

// target is the workload a restart acts on.
type target struct {
	c     *cluster
	key   model.Key
	kind  model.WorkloadKind
	who   string          // recorded in restartedBy: the API server's user name
	actor *model.Actor    // who the API server authenticated (IAM actions)
	ctx   context.Context // the action's context: one token for check, patch and Event
	uid   string          // the workload's UID as checked: the patch's precondition
	// restartedAt is the workload's last restart as the cache saw it.
	restartedAt string
}

func (t target) resource() string {
	if t.kind == model.KindStatefulSet {
		return "statefulsets"
	}
	return "deployments"
}

func (t target) String() string {
	return fmt.Sprintf("%s %s/%s", strings.ToLower(string(t.kind)), t.key.Namespace, t.key.Name)
}

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

func (t target) binding() model.Binding {
	return model.Binding{UID: t.uid, Actor: t.who, Server: t.c.clients.Server}
}

// unbound is why what the confirmation was given for (b) is not what the
// patch would act on now (t), "" when it is.
func unbound(b model.Binding, t target) string {
	now := t.binding()
	switch {
	case b == model.Binding{}:
		return ""
	case b.Server != now.Server:
		return fmt.Sprintf("Cluster %s is now served by %s, not by %s where the restart was checked; nothing was restarted. Open it again.",
			t.key.Cluster, now.Server, b.Server)
	case b.Actor != now.Actor:
		return fmt.Sprintf("The restart was confirmed for %s, but it would now be made as %s (the login changed); nothing was restarted. Open it again.",
			b.Actor, now.Actor)
	case b.UID != now.UID:
		return ReplacedReason
	}
	return ""
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
	if !ok && c.cd.IsChart(key) {
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

// Restart performs a rolling restart of the App's workload.
func (f *Fleet) Restart(ctx context.Context, key model.Key) error {
	_, err := f.RestartWith(ctx, key, RestartOptions{})
	return err
}

// RestartWith checks, then patches the pod template's restart annotations
// (which rolls the pods) and records an Event on the workload. The App's
// spec.image is never touched. With o.Bound it is refused when the workload
// (its UID), the actor or the API server is not the one the confirmation
// was given for; the UID is also the patch's precondition.
func (f *Fleet) RestartWith(ctx context.Context, key model.Key, o RestartOptions) (RestartResult, error) {
	d, t := f.decide(ctx, key)
	if !d.Allowed {
		return RestartResult{}, &RefusedError{Reason: d.Reason}
	}
	if why := unbound(o.Bound, t); why != "" {
		return RestartResult{}, &RefusedError{Reason: why}
	}
	if t.restartedAt != "" && t.restartedAt == f.opts.Now().UTC().Format(time.RFC3339Nano) {
		return RestartResult{}, &RefusedError{Reason: "It was already restarted at " + t.restartedAt + "; a second restart at the same instant would change nothing."}
	}
	ctx = t.ctx // the check's token, for the patch and the Event too
	res, err := f.patchRestart(ctx, t, o)
	if err == nil && !o.DryRun {
		f.mu.Lock()
		f.expectGen[key] = res.Generation
		f.mu.Unlock()
		res.EventError = t.c.recordRestart(ctx, t, res, o.Reason, f.opts.Now())
	}
	return res, err
}

// restartPatch is the strategic-merge (and merge) patch of a restart. The
// workload's UID in metadata is a precondition the API server checks: a
// workload deleted and re-created since the check is refused (409), never
// restarted in its place.
func restartPatch(at, by, uid string) []byte {
	ann := map[string]string{model.RestartedAtAnnotation: at}
	if by != "" {
		ann[model.RestartedByAnnotation] = by
	}
	p := map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{"annotations": ann}}}}
	if uid != "" {
		p["metadata"] = map[string]any{"uid": uid}
	}
	b, _ := json.Marshal(p) // maps of strings always marshal
	return b
}

func (f *Fleet) patchRestart(ctx context.Context, t target, o RestartOptions) (RestartResult, error) {
	res := RestartResult{Kind: t.kind, Namespace: t.key.Namespace, Name: t.key.Name, By: t.who, DryRun: o.DryRun,
		At: f.opts.Now().UTC().Format(time.RFC3339Nano)} // sub-second: two restarts in one second are two
	po := metav1.PatchOptions{FieldManager: FieldManager}
	if o.DryRun {
		po.DryRun = []string{metav1.DryRunAll}
	}
	data := restartPatch(res.At, res.By, t.uid)
	apps := t.c.clients.Kube.AppsV1()
	var meta metav1.Object
	var err error
	if t.kind == model.KindStatefulSet {
		meta, err = apps.StatefulSets(t.key.Namespace).Patch(ctx, t.key.Name, types.StrategicMergePatchType, data, po)
	} else {
		meta, err = apps.Deployments(t.key.Namespace).Patch(ctx, t.key.Name, types.StrategicMergePatchType, data, po)
	}
	switch {
	case replaced(err):
		return res, &RefusedError{Reason: ReplacedReason}
	case apierrors.IsForbidden(err):
		return res, fmt.Errorf("patch %s: Kubernetes refused: %s may not patch %s in namespace %s: %w",
			t, t.identity(), t.resource(), t.key.Namespace, err)
	case apierrors.IsNotFound(err):
		return res, fmt.Errorf("patch %s: it no longer exists: %w", t, err)
	case err != nil:
		return res, fmt.Errorf("patch %s: %w", t, err)
	}
	res.Generation = meta.GetGeneration()
	return res, nil
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
