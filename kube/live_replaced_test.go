package kube

import (
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestLiveRestartOfAReplacedWorkloadIsRefused: a workload deleted and
// re-created between the check (the dialog) and the restart (the confirm)
// is refused with a clear reason and the new one is left untouched, whether
// the board's cache has seen the new object or not; a second restart at the
// same instant says so instead of doing nothing silently.
func TestLiveRestartOfAReplacedWorkloadIsRefused(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	ctx := ctxT(t)
	now := time.Date(2026, 11, 30, 3, 0, 0, 250_000_000, time.UTC)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin), Now: func() time.Time { return now }})
	k := key("hanzo", "iam")
	checked := f.CheckRestart(ctx, k)
	if !checked.Allowed {
		t.Fatalf("CheckRestart: %s", checked.Reason)
	}
	_, oldTarget := f.decide(ctx, k)

	deps := c.AdminClient().AppsV1().Deployments("hanzo")
	old, err := deps.Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	must(t, deps.Delete(ctx, "iam", metav1.DeleteOptions{}))
	fresh := old.DeepCopy()
	fresh.ObjectMeta = metav1.ObjectMeta{Name: old.Name, Namespace: old.Namespace, Labels: old.Labels, OwnerReferences: old.OwnerReferences}
	fresh.Status = old.Status
	fresh, err = deps.Create(ctx, fresh, metav1.CreateOptions{})
	must(t, err)
	if fresh.UID == old.UID {
		t.Fatal("the re-created Deployment kept its UID")
	}

	// The cache has not seen it yet: the API server refuses the precondition.
	_, err = f.patchRestart(ctx, oldTarget, RestartOptions{})
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Reason != ReplacedReason {
		t.Errorf("patch with the old UID: %v, want %q", err, ReplacedReason)
	}
	// The cache has seen it: the confirmed restart is refused before sending.
	cl := f.byName[testClusterName]
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, wl, _ := cl.observe(k); wl != nil && wl.UID == string(fresh.UID) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cache never saw the re-created Deployment")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := f.RestartWith(ctx, k, RestartOptions{Bound: checked.Bound}); !errors.As(err, &refused) || refused.Reason != ReplacedReason {
		t.Errorf("restart after the workload was replaced: %v, want %q", err, ReplacedReason)
	}
	got, err := deps.Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	if a := got.Spec.Template.Annotations[model.RestartedAtAnnotation]; a != "" || got.Generation != fresh.Generation {
		t.Fatalf("the new Deployment was touched: restartedAt %q, generation %d → %d", a, fresh.Generation, got.Generation)
	}

	// Opened again on the new one: restarted, at a sub-second instant.
	if d := f.CheckRestart(ctx, k); !d.Allowed {
		t.Fatalf("CheckRestart on the new Deployment: %s", d.Reason)
	}
	res, err := f.RestartWith(ctx, k, RestartOptions{})
	must(t, err)
	if res.At != "2026-11-30T03:00:00.25Z" {
		t.Errorf("restartedAt = %q, want sub-second 2026-11-30T03:00:00.25Z", res.At)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		if _, wl, _ := cl.observe(k); wl != nil && wl.TemplateAnnotations[model.RestartedAtAnnotation] == res.At {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cache never saw the restart")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := f.RestartWith(ctx, k, RestartOptions{}); !errors.As(err, &refused) || !strings.Contains(refused.Reason, "already restarted at "+res.At) {
		t.Errorf("a second restart at the same instant: %v, want 'already restarted at %s'", err, res.At)
	}

	// The watch is down: the cache is stale and nothing is decided from it.
	c.StopAPIServer()
	waitCluster(t, f, "reconnecting", func(st model.ClusterState, _ *store.Snapshot) bool { return st.Phase == model.ConnReconnecting })
	if d := f.CheckRestart(ctx, k); d.Allowed || !strings.Contains(d.Reason, "stale") {
		t.Errorf("CheckRestart while reconnecting: %+v, want refused as stale", d)
	}
	c.StartAPIServer()
}
