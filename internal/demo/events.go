package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// eventTTL is how long Kubernetes keeps an Event after its last update:
// the demo records none about what happened longer ago.
const eventTTL = time.Hour

// The demo records the Events a kubelet and the Deployment controller would:
// a failing pod's back-off (and failed pulls), a probe failure, a
// ReplicaSet scaled up. Each is upserted under a stable name with its count,
// as the event recorder aggregates repeats.

// podEvents records what a failing or unready pod would show.
func (s *sim) podEvents(ctx context.Context, w *workload, p *pod, c corev1.Container, now time.Time) {
	ref := corev1.ObjectReference{Kind: "Pod", Namespace: w.ns(), Name: p.name, UID: p.uid, APIVersion: "v1"}
	container, image := c.Name, c.Image
	switch p.failure {
	case "ImagePullBackOff":
		s.recordEvent(ctx, w, ref, "Warning", "Failed", fmt.Sprintf("Failed to pull image %q: not found: manifest unknown", image), p.created, now, 1)
		s.recordEvent(ctx, w, ref, "Warning", "BackOff", fmt.Sprintf("Back-off pulling image %q", image), p.created, now, 1)
	case "CrashLoopBackOff":
		s.recordEvent(ctx, w, ref, "Warning", "BackOff", "Back-off restarting failed container "+container+" in pod "+p.name, p.created, now, max(1, p.restarts))
	}
	if p.unreadyUntil.After(now) {
		s.recordEvent(ctx, w, ref, "Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503", now, now, 1)
	}
}

// scaledUp records the Deployment controller scaling a new ReplicaSet up
// (only when that happened within the hour Events are kept).
func (s *sim) scaledUp(ctx context.Context, w *workload, r *revision, now time.Time) {
	if now.Sub(r.created) > eventTTL {
		return
	}
	ref := corev1.ObjectReference{Kind: "Deployment", Namespace: w.ns(), Name: w.name(), UID: w.uid, APIVersion: "apps/v1"}
	s.recordEvent(ctx, w, ref, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", r.name, r.replicas), r.created, r.created, 1)
}

// recordEvent creates the Event, or updates its count and last time.
func (s *sim) recordEvent(ctx context.Context, w *workload, ref corev1.ObjectReference, typ, reason, msg string, first, last time.Time, count int32) {
	events := w.fc.kube.CoreV1().Events(w.ns())
	name := ref.Name + "." + strings.ToLower(reason)
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.ns()}, InvolvedObject: ref,
		Type: typ, Reason: reason, Message: msg, Count: count,
		FirstTimestamp: metav1.NewTime(first.UTC().Truncate(time.Second)), LastTimestamp: metav1.NewTime(last.UTC().Truncate(time.Second)),
		Source: corev1.EventSource{Component: map[bool]string{true: "kubelet", false: "deployment-controller"}[ref.Kind == "Pod"]}}
	_, err := events.Create(ctx, ev, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return
	}
	cur, err := events.Get(ctx, name, metav1.GetOptions{})
	if err != nil || (cur.Count == count && cur.Message == msg && cur.LastTimestamp.Equal(&ev.LastTimestamp)) {
		return
	}
	cur.Count, cur.Message, cur.LastTimestamp = max(count, cur.Count), msg, ev.LastTimestamp
	_, _ = events.Update(ctx, cur, metav1.UpdateOptions{})
}
