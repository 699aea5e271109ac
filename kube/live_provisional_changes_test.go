package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Workloads that change once their lists are through but before the
// cluster has synced (the Apps still streaming) reach their rows at once:
// only the first lists' adds go unmarked, not a Deployment created, patched
// or deleted afterwards (informerSpec.firstListMarked).
func TestWorkloadChangesWhileSyncingReachTheirRows(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	ctx := ctxT(t)
	seed(t, c, "hanzo", "a-bump", "service", "v1.0.0", 1)
	seed(t, c, "hanzo", "a-drop", "service", "v1.0.0", 1)
	late, err := c.CreateApp(ctx, "hanzo", "a-late", "service", "ghcr.io/hanzoai/a-late", "v1.0.0", 1) // its Deployment comes later
	must(t, err)
	seed(t, c, "hanzo", "z-held", "service", "v1.0.0", 1)
	const firstEvents = 3 // the stream is in name order: a-bump, a-drop, a-late; z-held and the end are held
	g := newListGate(firstEvents)
	f, _ := startGatedFleet(t, c, g, FleetOptions{})
	bump, drop, lateKey := key("hanzo", "a-bump"), key("hanzo", "a-drop"), key("hanzo", "a-late")
	// The three rows pending first, so that only the marking of the rows
	// seen once the workloads are listed (whenWorkloadsListed, all three at
	// once) can show a-bump's and a-drop's Deployments: after it nothing is
	// due to build a-late's row again but its Deployment's add.
	waitFor(t, f, "the streamed rows, pending", func(s *store.Snapshot) bool { return s.Len() == firstEvents })
	close(g.deployments)
	close(g.replicasets)
	waitFor(t, f, "the streamed rows with their workloads", func(s *store.Snapshot) bool {
		b, d, l := findRow(s, bump), findRow(s, drop), findRow(s, lateKey)
		return b != nil && b.Workload.Found && d != nil && d.Workload.Found && l != nil && !l.WaitsOnWorkload()
	})
	if l := findRow(f.Snapshot(), lateKey); l.Workload.Found {
		t.Fatalf("a-late has a workload before its Deployment was made: %+v", l.Workload)
	}

	deployments := c.AdminClient().AppsV1().Deployments("hanzo")
	_, err = deployments.Patch(ctx, "a-bump", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"ghcr.io/hanzoai/a-bump:v1.1.0"}]`), metav1.PatchOptions{})
	must(t, err)
	_, err = deployments.Create(ctx, testcluster.OperatorDeployment(late), metav1.CreateOptions{})
	must(t, err)
	must(t, deployments.Delete(ctx, "a-drop", metav1.DeleteOptions{}))
	snap := waitFor(t, f, "the workload changes on their rows", func(s *store.Snapshot) bool {
		b, d, l := findRow(s, bump), findRow(s, drop), findRow(s, lateKey)
		return b != nil && b.RunningTag == "v1.1.0" && d != nil && !d.Workload.Found && l != nil && l.Workload.Found
	})
	if phase := snap.Clusters[0].Phase; phase != model.ConnSyncing || f.clusters[0].isSynced() {
		t.Fatalf("the cluster is %s: the changes were to land while it syncs", phase)
	}
}
