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
