package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

var _ promote.CD = (*Fleet)(nil)

// refreshAnnotation asks an Application of group to look at git again (its
// controller removes it).
func refreshAnnotation(group string) string {
	if group == "argoproj.io" {
		return "argocd.argoproj.io/refresh"
	}
	return "apps.hanzo.ai/refresh"
}

// SyncApplication asks CD to apply req.Revision for key's App, the way CD's
// own API does: the Application's operation (sync.revision, initiatedBy)
// where it syncs by hand, a refresh annotation where it syncs by itself.
// The checks are a restart's (read-only, the IAM scope on the App's
// namespace, the cluster trusted and live, who the API server says acts),
// then whether Kubernetes lets that identity patch the Application.
func (f *Fleet) SyncApplication(ctx context.Context, key model.Key, req promote.SyncRequest) (promote.SyncResult, error) {
	var l checklist
	ctx, c, p, iam, stop := f.gate(ctx, key, "CD syncs are asked", &l)
	if stop != nil {
		return promote.SyncResult{}, &promote.SyncRefused{Reason: stop.Reason, Checks: stop.Checks}
	}
	refuse := func(d model.Decision, _ target) (promote.SyncResult, error) {
		return promote.SyncResult{}, &promote.SyncRefused{Reason: d.Reason, Checks: d.Checks}
	}
	group, rest, _ := strings.Cut(req.Application, "/")
	ns, name, _ := strings.Cut(rest, "/")
	kind, ok := c.cd.KindOf(group)
	if !ok || ns == "" || name == "" {
		return refuse(l.stop(model.CheckWorkload, model.CheckRefused, "Application %s is not of a CD kind watched on cluster %s.", req.Application, key.Cluster))
	}
	var app *model.CDApplication
	for _, a := range c.cd.View().Apps {
		if a.Group == group && a.Namespace == ns && a.Name == name {
			app = a
		}
	}
	if app == nil {
		return refuse(l.stop(model.CheckWorkload, model.CheckRefused, "Application %s/%s is not on cluster %s.", ns, name, key.Cluster))
	}
	l.pass(model.CheckWorkload, "Application %s/%s syncs %s", ns, name, app.Path)
	var actor *model.Actor
	var who string
	if stop := c.actor(ctx, key, p, iam, &l, &actor, &who); stop != nil {
		return promote.SyncResult{}, &promote.SyncRefused{Reason: stop.Reason, Checks: stop.Checks}
	}
	allowed, why, err := c.canPatchIn(ctx, group, kind.GVR.Resource, ns, name)
	ident := who
	if actor != nil {
		ident = actor.Label()
	}
	switch {
	case err != nil:
		return refuse(l.stop(model.CheckAccessReview, model.CheckUnknown, "Could not check Kubernetes permissions for Application %s/%s: %s", ns, name, errText(err)))
	case !allowed:
		if why != "" {
			why = " (" + why + ")"
		}
		return refuse(l.stop(model.CheckAccessReview, model.CheckRefused, "Kubernetes RBAC does not allow %s to patch %s.%s in namespace %s.%s", ident, kind.GVR.Resource, group, ns, why))
	}
	l.pass(model.CheckAccessReview, "Kubernetes RBAC allows %s to patch %s.%s in namespace %s (SelfSubjectAccessReview)", ident, kind.GVR.Resource, group, ns)

	res := promote.SyncResult{Application: req.Application, Refresh: app.Automated, Revision: req.Revision, By: who, DryRun: req.DryRun, Checks: l}
	ri := c.clients.Dynamic.Resource(kind.GVR).Namespace(ns)
	cur, err := ri.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return res, fmt.Errorf("read Application %s/%s: %w", ns, name, apiErr(err))
	}
	if op, ok := cur.Object["operation"]; ok && op != nil {
		return refuse(l.stop(model.CheckWorkload, model.CheckRefused, "Application %s/%s already has an operation running; nothing was asked. Try again when it ends.", ns, name))
	}
	var patch map[string]any
	meta := map[string]any{"resourceVersion": cur.GetResourceVersion()} // the Application as checked, or a conflict
	if app.Automated {
		meta["annotations"] = map[string]any{refreshAnnotation(group): "normal"}
		patch = map[string]any{"metadata": meta}
	} else {
		patch = map[string]any{"metadata": meta, "operation": map[string]any{
			"sync":        map[string]any{"revision": req.Revision},
			"initiatedBy": map[string]any{"username": who},
			"info":        []any{map[string]any{"name": "Reason", "value": "driftboard promote of " + key.Namespace + "/" + key.Name}},
		}}
	}
	body, err := json.Marshal(patch)
	if err != nil {
		return res, err
	}
	opts := metav1.PatchOptions{FieldManager: FieldManager}
	if req.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	if _, err := ri.Patch(ctx, name, types.MergePatchType, body, opts); err != nil {
		if apierrors.IsConflict(err) {
			return res, fmt.Errorf("the Application %s/%s changed while it was checked; nothing was asked: %w", ns, name, apiErr(err))
		}
		return res, fmt.Errorf("patch Application %s/%s: Kubernetes refused: %w", ns, name, apiErr(err))
	}
	return res, nil
}

// PromotionLookup is what finding an App's declaring file starts from on
// its cluster: the CD Applications read there, and the App CR's
// apps.hanzo.ai/tracking-id ("" when it has none or is not cached).
func (f *Fleet) PromotionLookup(key model.Key) ([]*model.CDApplication, string) {
	c := f.byName[key.Cluster]
	if c == nil {
		return nil, ""
	}
	apps := c.cd.View().Apps
	var tracking string
	if s := c.scopeFor(key.Namespace); s != nil {
		if app, ok := appOf(s, key); ok {
			tracking = app.Annotations[model.CDTrackingIDAnnotation]
		}
	}
	return apps, tracking
}
