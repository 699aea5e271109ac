package kube

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/kube/events"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// restartEvent is the Event a restart records on the workload, in the words
// the events package reads it by.
func restartEvent(t target, uid types.UID, res RestartResult, reason string, now time.Time) *corev1.Event {
	by := res.By
	if t.actor != nil {
		by = t.actor.Label() // the API server's user name, the IAM display name beside it
	}
	msg := fmt.Sprintf("Rolling restart requested by %s via driftboard", by)
	if reason != "" {
		msg += ": " + wire.Truncate(reason, wire.MaxMessage)
	}
	ts := metav1.NewTime(now)
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", t.key.Name, now.UnixNano()), Namespace: t.key.Namespace,
			Annotations: map[string]string{model.RestartedAtAnnotation: res.At}},
		InvolvedObject: corev1.ObjectReference{APIVersion: "apps/v1", Kind: string(t.kind),
			Namespace: t.key.Namespace, Name: t.key.Name, UID: uid},
		Reason: events.RestartReason, Message: msg, Type: corev1.EventTypeNormal, Action: "Restart",
		Source:         corev1.EventSource{Component: events.RestartInstance},
		FirstTimestamp: ts, LastTimestamp: ts, Count: 1,
		ReportingController: events.RestartController, ReportingInstance: events.RestartInstance,
	}
}

// recordRestart creates the Event; its failure does not undo the restart.
func (c *cluster) recordRestart(ctx context.Context, t target, res RestartResult, reason string, now time.Time) error {
	var uid types.UID
	if s := c.scopeFor(t.key.Namespace); s != nil {
		if we, ok := s.get(t.resource(), t.key.Namespace, t.key.Name).(*wire.WorkloadEntry); ok {
			uid = we.UID
		}
	}
	ev := restartEvent(t, uid, res, reason, now)
	if _, err := c.clients.Kube.CoreV1().Events(t.key.Namespace).Create(ctx, ev, metav1.CreateOptions{FieldManager: FieldManager}); err != nil {
		return fmt.Errorf("record Event on %s: %w", t, err)
	}
	return nil
}
