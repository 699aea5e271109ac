package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// backend is where the board's Kubernetes behaviour comes from: the demo's
// simulated API server, operator and controllers, or a real kube-apiserver
// with kube-controller-manager and kwok. One lifecycle runs on both, so the
// demo can never teach users something a real cluster does not do.
type backend struct {
	clients kube.ClusterClients
	key     model.Key // the App the lifecycle follows
	// operate does the operator's share of a git bump to tag: on the real
	// cluster the test writes the workload's template; the demo's own
	// operator does it there.
	operate func(t *testing.T, tag string)
}

func TestLifecycleOnBothBackends(t *testing.T) {
	t.Run("demo", func(t *testing.T) { appLifecycle(t, demoBackend(t)) })
	t.Run("real API server", func(t *testing.T) { appLifecycle(t, realBackend(t)) })
}

// appLifecycle: the App is there and rolled out, its tag is bumped in
// "git" and rolls out, it is restarted and rolls out again, it is deleted.
func appLifecycle(t *testing.T, b backend) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	f := kube.NewFleet(kube.FleetOptions{}, b.clients)
	f.Start(ctx)
	if err := f.WaitSynced(ctx); err != nil {
		t.Fatalf("WaitSynced: %v", err)
	}
	row := waitApp(t, f, b.key, "created and rolled out", func(r *model.AppView) bool {
		return r != nil && r.Workload.Found && r.Workload.Rollout == model.RolloutComplete && r.RunningTag == r.DeclaredTag
	})
	if len(row.Problems) != 0 || !row.Workload.OwnedByApp || row.Workload.SpecTag != row.DeclaredTag {
		t.Errorf("created: problems %v, workload %+v, declared %q", row.Problems, row.Workload, row.DeclaredTag)
	}

	// Updated: a git bump of the App's tag reaches the template, then the pods.
	const next = "v9.8.7"
	patch := fmt.Sprintf(`{"spec":{"image":{"tag":%q}}}`, next)
	if _, err := b.clients.Dynamic.Resource(testcluster.AppsGVR).Namespace(b.key.Namespace).Patch(ctx, b.key.Name,
		types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("bump the App's tag: %v", err)
	}
	b.operate(t, next)
	waitApp(t, f, b.key, "declared and template tag "+next, func(r *model.AppView) bool {
		return r != nil && r.DeclaredTag == next && r.Workload.SpecTag == next
	})
	row = waitApp(t, f, b.key, "rolled out to "+next, func(r *model.AppView) bool {
		return r != nil && r.Workload.Rollout == model.RolloutComplete && r.RunningTag == next
	})
	for _, fl := range row.Drift.Flags {
		if fl.Kind == drift.DriftUnrolled {
			t.Errorf("rolled out, still un-rolled: %+v", row.Drift)
		}
	}

	// Restarted: the annotation lands on the template and the rollout ends.
	res, err := f.RestartWith(ctx, b.key, kube.RestartOptions{Reason: "lifecycle test"})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	if err := f.WaitRollout(ctx, b.key, func(model.WorkloadView) {}); err != nil {
		t.Fatalf("rollout after the restart: %v", err)
	}
	row = waitApp(t, f, b.key, "restart visible", func(r *model.AppView) bool {
		return r != nil && r.Workload.RestartedAt == res.At && r.Workload.Rollout == model.RolloutComplete
	})
	if row.RunningTag != next || row.DeclaredTag != next {
		t.Errorf("a restart changed a tag: declared %q running %q", row.DeclaredTag, row.RunningTag)
	}

	// Deleted: the row leaves the board.
	if err := b.clients.Dynamic.Resource(testcluster.AppsGVR).Namespace(b.key.Namespace).Delete(ctx, b.key.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete the App: %v", err)
	}
	waitApp(t, f, b.key, "row gone", func(r *model.AppView) bool { return r == nil })
}

func waitApp(t *testing.T, f *kube.Fleet, k model.Key, what string, ok func(*model.AppView) bool) *model.AppView {
	t.Helper()
	var got *model.AppView
	waitBoard(t, f, 90*time.Second, what, func(s *store.Snapshot) bool {
		got = nil
		for _, r := range s.Rows() {
			if r.Key() == k {
				got = r
			}
		}
		return ok(got)
	})
	return got
}

// demoBackend is a quiet demo (no scripted events) and one of its healthy
// Apps: the demo's operator only manages its own catalog, so there the
// lifecycle starts from an App that exists.
func demoBackend(t *testing.T) backend {
	ctx, cancel := context.WithCancel(context.Background())
	d, err := demo.Start(ctx, demo.Options{Seed: 7, Speed: 20, Apps: 20, Quiet: true})
	if err != nil {
		cancel()
		t.Fatalf("demo.Start: %v", err)
	}
	t.Cleanup(func() { cancel(); d.Stop() })
	var cc kube.ClusterClients
	for _, c := range d.Clusters() {
		if c.Name == "demo" {
			cc = c
		}
	}
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	if err := d.Fleet().WaitSynced(wctx); err != nil {
		t.Fatalf("demo WaitSynced: %v", err)
	}
	snap := waitBoard(t, d.Fleet(), 60*time.Second, "a healthy demo App", func(s *store.Snapshot) bool {
		return healthyApp(s) != nil
	})
	return backend{clients: cc, key: healthyApp(snap).Key(), operate: func(*testing.T, string) {}}
}

// healthyApp is a plain, rolled-out, drift-free Deployment App on cluster demo.
func healthyApp(s *store.Snapshot) *model.AppView {
	for _, r := range s.Rows() {
		if r.Cluster == "demo" && r.Kind == "App" && r.Workload.Kind == model.KindDeployment && r.Workload.Found &&
			r.Workload.OwnedByApp && r.Workload.Rollout == model.RolloutComplete && len(r.Problems) == 0 &&
			drift.IsSemverTag(r.DeclaredTag) && r.RunningTag == r.DeclaredTag && !r.Env.IsProduction() {
			return r
		}
	}
	return nil
}

// realBackend is a real control plane with controllers and kwok; the test
// creates the App and the Deployment the operator would make.
func realBackend(t *testing.T) backend {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo-testnet")
	ctx := context.Background()
	if err := c.SeedApp(ctx, "hanzo-testnet", "ledger", "service", "ghcr.io/hanzoai/ledger", "v1.0.0", 2); err != nil {
		t.Fatal(err)
	}
	cc, err := kube.NewClusterClients(clusterName, c.AdminConfig(), kube.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cc.Identity = model.ClusterIdentity{IAM: true} // stands for a cluster trusting the IAM issuer, as the demo's do
	operate := func(t *testing.T, tag string) {
		patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"ledger","image":"ghcr.io/hanzoai/ledger:%s"}]}}}}`, tag)
		if _, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Patch(ctx, "ledger",
			types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatalf("the operator's template write: %v", err)
		}
	}
	return backend{clients: cc, key: key("hanzo-testnet", "ledger"), operate: operate}
}
