package kube

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A tenant who may create Events writes one that reads exactly like the
// board's restart record, naming another person: the detail shows who
// reported each Event and that only the board's own names the restart the
// patch wrote (hanzo.ai/restartedAt). The Events are read by field
// selectors, never the whole namespace, and a flood of the tenant's other
// Events is not kept.
func TestLiveEventsTellTheBoardsRestartFromALookAlike(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "web", "iam", "v1.0.0", 1)
	ctx := ctxT(t)
	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin), Now: func() time.Time { return now }})
	k := key("hanzo", "web")
	waitRow(t, f, k, "ready", func(r *model.AppView) bool { return r != nil && r.Workload.Rollout == model.RolloutComplete })
	res, err := f.RestartWith(ctx, k, RestartOptions{})
	must(t, err)
	if res.EventError != nil {
		t.Fatal(res.EventError)
	}
	waitRow(t, f, k, "the restart seen", func(r *model.AppView) bool { return r != nil && r.Workload.RestartedAt == res.At })

	admin := c.AdminClient()
	_, err = admin.RbacV1().Roles("hanzo").Create(ctx, rbacRole("hanzo"), metav1.CreateOptions{})
	must(t, err)
	_, err = admin.RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "mallory"), metav1.CreateOptions{})
	must(t, err)
	tenant, err := kubernetes.NewForConfig(c.UserConfig("mallory"))
	must(t, err)
	d, err := admin.AppsV1().Deployments("hanzo").Get(ctx, "web", metav1.GetOptions{})
	must(t, err)
	ts := metav1.NewTime(now.Add(time.Minute))
	fake := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "web.forged", Namespace: "hanzo",
			Annotations: map[string]string{model.RestartedAtAnnotation: "2026-11-30T02:59:00Z"}},
		InvolvedObject: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "hanzo", Name: "web", UID: d.UID},
		Reason:         "Restarted", Message: "Rolling restart requested by bob (bob) via driftboard", Type: corev1.EventTypeNormal,
		Action: "Restart", Source: corev1.EventSource{Component: FieldManager}, FirstTimestamp: ts, LastTimestamp: ts, Count: 1,
		ReportingController: "hanzo.ai/driftboard", ReportingInstance: FieldManager,
	}
	_, err = tenant.CoreV1().Events("hanzo").Create(ctx, fake, metav1.CreateOptions{})
	must(t, err)
	for i := range 150 { // about other pods of the namespace
		ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("noise.%d", i), Namespace: "hanzo"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "hanzo", Name: fmt.Sprintf("other-%d", i)},
			Reason:         "Noise", Message: "x", Type: "Normal", FirstTimestamp: ts, LastTimestamp: ts, Count: 1}
		_, err := tenant.CoreV1().Events("hanzo").Create(ctx, ev, metav1.CreateOptions{})
		must(t, err)
	}

	check := func(how string, evs []model.Event) {
		t.Helper()
		var own, unmatched int
		for _, e := range evs {
			switch {
			case e.Reason == "Noise":
				t.Errorf("%s: an Event about another pod: %+v", how, e)
			case e.Reason != "Restarted":
			case e.Restart == model.RestartOwn && strings.Contains(e.Message, "admin (alice)") && e.Reporter == "hanzo.ai/driftboard":
				own++
			case e.Restart == model.RestartUnmatched && strings.Contains(e.Message, "bob"):
				unmatched++
			default:
				t.Errorf("%s: restart Event %+v", how, e)
			}
		}
		if own != 1 || unmatched != 1 {
			t.Errorf("%s: %d of the board's restart Events, %d look-alikes; want one each: %+v", how, own, unmatched, evs)
		}
	}
	got, err := f.RecentEvents(ctx, k)
	must(t, err)
	check("RecentEvents", got)
	wctx, closeDetail := context.WithCancel(ctx)
	ch, err := f.WatchEvents(wctx, k)
	must(t, err)
	select {
	case evs := <-ch:
		check("WatchEvents", evs)
	case <-time.After(30 * time.Second):
		t.Fatal("no list from the watch")
	}
	closeDetail()

	audit, err := c.AuditEvents()
	must(t, err)
	for _, e := range audit {
		if e.ObjectRef != nil && e.ObjectRef.Resource == "events" && e.ObjectRef.Namespace == "hanzo" && (e.Verb == "list" || e.Verb == "watch") &&
			e.User.Username != "mallory" && !strings.Contains(e.RequestURI, "fieldSelector=") {
			t.Errorf("Events read without a field selector: %s %s", e.Verb, e.RequestURI)
		}
	}
}
