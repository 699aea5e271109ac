package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// On a real API server with the real controllers: a rollout the pod quota
// blocks makes the new ReplicaSet record FailedCreate Warnings (one Event,
// counted up); the detail's watch sees them, then an Event created while it
// is open, and ends its WATCH when the detail closes (the audit log says
// so). Events of another app in the namespace never show.
func TestLiveEventsWatch(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "web", "iam", "main", 1)
	seed(t, c, "hanzo", "other", "iam", "main", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	ctx := ctxT(t)
	for _, n := range []string{"web", "other"} {
		waitRow(t, f, key("hanzo", n), "settled", func(r *model.AppView) bool {
			return r != nil && r.Workload.Rollout == model.RolloutComplete
		})
	}
	admin := c.AdminClient()
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "pods", Namespace: "hanzo"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("2")}}}
	q, err := admin.CoreV1().ResourceQuotas("hanzo").Create(ctx, quota, metav1.CreateOptions{})
	must(t, err)
	// What the quota controller (not run here) would count: the two pods.
	q.Status = corev1.ResourceQuotaStatus{Hard: quota.Spec.Hard, Used: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("2")}}
	_, err = admin.CoreV1().ResourceQuotas("hanzo").UpdateStatus(ctx, q, metav1.UpdateOptions{})
	must(t, err)

	wctx, closeDetail := context.WithCancel(ctx)
	defer closeDetail()
	ch, err := f.WatchEvents(wctx, key("hanzo", "web"))
	must(t, err)
	var last []model.Event
	waitEvents := func(what string, ok func([]model.Event) bool) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for !ok(last) {
			select {
			case evs, open := <-ch:
				if !open {
					t.Fatalf("%s: the watch ended early; last %+v", what, last)
				}
				last = evs
			case <-deadline:
				t.Fatalf("%s: not seen; last %+v", what, last)
			}
		}
	}
	waitEvents("the first rollout's events", func(evs []model.Event) bool {
		return hasEvent(evs, "Deployment web", "ScalingReplicaSet", "Normal")
	})

	// The rollout: a new ReplicaSet whose surge pod the quota refuses.
	patch := fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"rollout":%q}}}}}`, time.Now().Format(time.RFC3339Nano))
	_, err = admin.AppsV1().Deployments("hanzo").Patch(ctx, "web", types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	must(t, err)
	waitEvents("FailedCreate counted up", func(evs []model.Event) bool {
		for _, e := range evs {
			if strings.HasPrefix(e.Object, "ReplicaSet web-") && e.Reason == "FailedCreate" && e.Type == "Warning" &&
				strings.Contains(e.Message, "exceeded quota") && e.Count > 1 {
				return true
			}
		}
		return false
	})
	for i := 1; i < len(last); i++ {
		if last[i].Last.After(last[i-1].Last) {
			t.Errorf("not newest first: %+v", last)
		}
	}

	// An Event written while the detail is open arrives on the watch.
	pods := runningPods(t, admin, "app.kubernetes.io/name=web", 1)
	now := metav1.Now()
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "web-probe", Namespace: "hanzo"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "hanzo", Name: pods[0]},
		Type:           "Warning", Reason: "Unhealthy", Message: "Readiness probe failed: 503", Count: 4,
		FirstTimestamp: now, LastTimestamp: now, Source: corev1.EventSource{Component: "kubelet"}}
	_, err = admin.CoreV1().Events("hanzo").Create(ctx, ev, metav1.CreateOptions{})
	must(t, err)
	waitEvents("the new pod Event", func(evs []model.Event) bool {
		return len(evs) > 0 && evs[0].Reason == "Unhealthy" && evs[0].Count == 4 && evs[0].Object == "Pod "+pods[0]
	})
	for _, e := range last {
		if strings.Contains(e.Object, "other") {
			t.Errorf("an Event of another app: %+v", e)
		}
	}
	got, err := f.RecentEvents(ctx, key("hanzo", "web"))
	if err != nil || len(got) != len(last) {
		t.Errorf("RecentEvents: %d events, %v; the watch had %d", len(got), err, len(last))
	}

	// Closing the detail ends the watch: the channel closes and the API
	// server logs the WATCH as complete.
	closeDetail()
	select {
	case _, open := <-ch:
		for open {
			_, open = <-ch
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the channel did not close after the detail closed")
	}
	must(t, pollUntil(ctx, func() bool { return eventWatches(t, c, "ResponseComplete") == eventWatches(t, c, "ResponseStarted") }))
	if n := eventWatches(t, c, "ResponseStarted"); n == 0 {
		t.Error("no WATCH of events in the audit log")
	}
}

// eventWatches counts the WATCH requests on events in namespace hanzo at stage.
func eventWatches(t *testing.T, c *testcluster.Cluster, stage string) int {
	t.Helper()
	evs, err := c.AuditEvents()
	must(t, err)
	n := 0
	for _, e := range evs {
		if e.Verb == "watch" && e.Stage == stage && e.ObjectRef != nil && e.ObjectRef.Resource == "events" && e.ObjectRef.Namespace == "hanzo" {
			n++
		}
	}
	return n
}

func hasEvent(evs []model.Event, object, reason, typ string) bool {
	return slices.ContainsFunc(evs, func(e model.Event) bool {
		return e.Object == object && e.Reason == reason && e.Type == typ
	})
}

// Who may not list Events is told so, not shown "none".
func TestLiveEventsForbidden(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "web", "iam", "main", 1)
	admin := c.AdminClient()
	ctx := ctxT(t)
	_, err := admin.RbacV1().Roles("hanzo").Create(ctx, rbacRole("hanzo"), metav1.CreateOptions{})
	must(t, err)
	_, err = admin.RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "erin"), metav1.CreateOptions{})
	must(t, err)
	f := startFleet(t, c.UserConfig("erin"), FleetOptions{})
	waitRow(t, f, key("hanzo", "web"), "visible to erin", func(r *model.AppView) bool { return r != nil })
	_, err = f.WatchEvents(ctx, key("hanzo", "web"))
	if !errors.Is(err, model.ErrEventsForbidden) || !strings.Contains(err.Error(), "erin may not list events in namespace hanzo") {
		t.Errorf("watch without access: %v", err)
	}
	if _, err := f.RecentEvents(ctx, key("hanzo", "web")); !errors.Is(err, model.ErrEventsForbidden) {
		t.Errorf("read without access: %v", err)
	}
}
