package kube

import (
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestClusterNotLiveBeforeNamespaceLabels: against a real API server whose
// namespace list (not setup's probe) is held in the client's transport,
// every other list done, the cluster stays syncing: its rows took their org
// from the image, not from the namespace's label, and reading live would
// pass that guess for the truth. Once the list is answered it syncs with the
// namespace's org on every row.
func TestClusterNotLiveBeforeNamespaceLabels(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	const ns = "tenant-weirdorg-1b2c"
	all := seedTenant(t, c, ns, "weird_org", 4)
	g := newListGate(0)
	g.namespaces = make(chan struct{})
	close(g.apps)
	close(g.deployments)
	close(g.replicasets)
	f, _ := startGatedFleet(t, c, g, FleetOptions{Principal: principal(superAdmin)})
	cl := f.clusters[0]

	waitFor(t, f, "every row with its workload while the namespaces' list is held", func(s *store.Snapshot) bool {
		if s.Len() != len(all) {
			return false
		}
		for _, r := range s.Rows() {
			if r.Workload.Pending != "" {
				return false
			}
		}
		return true
	})
	// The other lists are done: without the wait the cluster reads live
	// within a poll of the informers' sync (100 ms).
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		snap := f.Snapshot()
		if cl.isSynced() || snap.Clusters[0].Phase == model.ConnLive {
			for _, r := range snap.Rows() {
				t.Logf("%s: org %q", r.App, r.Org)
			}
			t.Fatalf("the cluster reads %s (synced %v) before its namespaces' labels were listed", snap.Clusters[0].Phase, cl.isSynced())
		}
	}

	close(g.namespaces)
	waitFor(t, f, "the synced board with the namespace's org", func(s *store.Snapshot) bool {
		if s.Clusters[0].Phase != model.ConnLive || s.Len() != len(all) {
			return false
		}
		for _, r := range s.Rows() {
			if r.Org != "weird_org" {
				return false
			}
		}
		return true
	})
}
