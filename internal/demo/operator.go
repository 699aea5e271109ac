package demo

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/hanzoai/driftboard/model"
)

// The simulated Hanzo operator: it rolls an App's new tag into its workload
// and reports the workload's state in the App's status.

func crGVR(kind string) schema.GroupVersionResource {
	if kind == "Service" {
		return servicesGVR
	}
	return appsGVR
}

// reconcileApp reacts to a changed App spec (a "git" bump).
func (s *sim) reconcileApp(ctx context.Context, key string, now time.Time) {
	a := s.apps[key]
	if a == nil {
		return
	}
	fc := s.clusters[a.cluster]
	u, err := fc.dyn.Resource(crGVR(a.kind)).Namespace(a.ns).Get(ctx, a.name, metav1.GetOptions{})
	if err != nil {
		return
	}
	tag, ok, _ := unstructured.NestedString(u.Object, "spec", "image", "tag")
	delete(s.appKeys, key) // observedGeneration moves on
	w := s.workloads[key]
	if !ok || w == nil || a.sc == scLegacy {
		s.writeAppStatus(ctx, a, w, now)
		return
	}
	a.declared = tag
	if templateTag(w.template) != tag {
		s.setWorkloadTag(ctx, w, tag)
	}
	s.writeAppStatus(ctx, a, w, now)
}

// setWorkloadTag writes the App's tag into the workload's pod template.
func (s *sim) setWorkloadTag(ctx context.Context, w *workload, tag string) {
	img := imageRef(w.app.repo, tag)
	apps := w.fc.kube.AppsV1()
	if w.kind == model.KindStatefulSet {
		st, err := apps.StatefulSets(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
		if err != nil || len(st.Spec.Template.Spec.Containers) == 0 {
			return
		}
		st.Spec.Template.Spec.Containers[0].Image = img
		st.Labels["app.kubernetes.io/version"], st.Spec.Template.Labels["app.kubernetes.io/version"] = tag, tag
		_, _ = apps.StatefulSets(w.ns()).Update(ctx, st, metav1.UpdateOptions{})
		return
	}
	d, err := apps.Deployments(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
	if err != nil || len(d.Spec.Template.Spec.Containers) == 0 {
		return
	}
	d.Spec.Template.Spec.Containers[0].Image = img
	d.Labels["app.kubernetes.io/version"], d.Spec.Template.Labels["app.kubernetes.io/version"] = tag, tag
	_, _ = apps.Deployments(w.ns()).Update(ctx, d, metav1.UpdateOptions{})
}

// appStatus is the status the operator reports for a, with workload w
// (nil when there is none).
func appStatus(a *appPlan, w *workload, now time.Time) map[string]any {
	phase, ready, reason, msg := "Running", true, "Available", ""
	var readyN int32
	switch {
	case a.sc == scBadImage:
		phase, ready, reason, msg = "Pending", false, "InvalidSpec", `spec.image: expected an object {repository, tag, pullPolicy}, got a string`
	case a.sc == scBadReplicas:
		phase, ready, reason, msg = "Pending", false, "InvalidSpec", `spec.replicas: expected an integer, got "three"`
	case a.sc == scIngress:
		reason, msg = "Delegated", "Routes are served by the ingress shards."
	case a.repo == "":
		reason, msg = "NoOp", "No image: a route-only App."
	case a.sc == scLegacy:
		phase, ready, reason, msg = "Degraded", false, "NotReady", fmt.Sprintf("Deployment %s exists and is not controlled by this App; refusing to adopt it.", a.name)
	case w == nil:
		phase, ready, reason = "Degraded", false, "NotReady"
		msg = fmt.Sprintf("create deployment %s: exceeded quota: %s-compute, requested: requests.cpu=100m, used: requests.cpu=7950m, limited: requests.cpu=8", a.name, a.ns)
	default:
		desired := w.replicas
		readyN = w.counts(now).ready
		msg = fmt.Sprintf("%d/%d replicas ready", readyN, desired)
		if readyN < desired {
			phase, ready, reason = "Degraded", false, "NotReady"
		}
	}
	st := map[string]any{"phase": phase, "readyReplicas": int64(readyN), "availableReplicas": int64(readyN)}
	status := "True"
	if !ready {
		status = "False"
	}
	st["conditions"] = []any{map[string]any{"type": "Ready", "status": status, "reason": reason, "message": msg,
		"lastTransitionTime": now.UTC().Format(time.RFC3339)}}
	var eps []any
	for _, h := range a.hosts {
		eps = append(eps, "https://"+h)
	}
	if eps != nil {
		st["endpoints"] = eps
	}
	if w != nil && a.repo != "" {
		if r := busiest(w, now); r != nil && len(r.template.Spec.Containers) > 0 {
			st["lastGoodImage"] = r.template.Spec.Containers[0].Image
		}
		if cur := w.current(); !w.done && cur != nil && !w.paused {
			st["upgrade"] = map[string]any{"targetImage": cur.template.Spec.Containers[0].Image, "phase": "Rolling"}
		}
	}
	return st
}

// busiest is the revision with most ready pods.
func busiest(w *workload, now time.Time) *revision {
	var best *revision
	for _, r := range w.revs {
		if n := r.readyPods(now); n > 0 && (best == nil || n > best.readyPods(now)) {
			best = r
		}
	}
	return best
}

// appStatusKey summarises a status without its times.
func appStatusKey(st map[string]any) string {
	c := st["conditions"].([]any)[0].(map[string]any)
	return fmt.Sprint(st["phase"], st["readyReplicas"], c["status"], c["reason"], c["message"], st["lastGoodImage"], st["upgrade"])
}

// writeAppStatus updates the App's status when it changed.
func (s *sim) writeAppStatus(ctx context.Context, a *appPlan, w *workload, now time.Time) {
	st := appStatus(a, w, now)
	key := appStatusKey(st)
	if s.appKeys[a.key()] == key {
		return
	}
	ri := s.clusters[a.cluster].dyn.Resource(crGVR(a.kind)).Namespace(a.ns)
	u, err := ri.Get(ctx, a.name, metav1.GetOptions{})
	if err != nil {
		return
	}
	st["observedGeneration"] = u.GetGeneration()
	u.Object["status"] = st
	if _, err := ri.UpdateStatus(ctx, u, metav1.UpdateOptions{}); err == nil {
		s.appKeys[a.key()] = key
	}
}
