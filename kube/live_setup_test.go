package kube

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestFirstRowsWaitOnlyForDiscovery: against a real API server whose
// answers to the rest of setup — the namespace probe and watch, the CD
// groups' discovery, the CRD probes — are held in the client's transport,
// the Apps are on the board, the cluster syncing, before any of them is
// answered (each round trip of that chain once delayed every cluster's first
// rows). Once they are answered the cluster syncs and each row is as a
// rebuild from the caches makes it, its org taken from the namespace's
// label that arrived after the row.
func TestFirstRowsWaitOnlyForDiscovery(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	const ns = "tenant-weirdorg-0f3a"
	all := seedTenant(t, c, ns, "weird_org", 6)
	g := newListGate(0)
	g.setup = make(chan struct{})
	close(g.apps)
	close(g.deployments)
	close(g.replicasets)
	f, _ := startGatedFleet(t, c, g, FleetOptions{Principal: principal(superAdmin)})
	cl := f.clusters[0]

	snap := waitFor(t, f, "the Apps on the board while the rest of setup is held", func(s *store.Snapshot) bool {
		return s.Len() == len(all)
	})
	if g.setupHeld.Load() == 0 {
		t.Fatal("no setup request was held: the gate does not hold")
	}
	if st := snap.Clusters[0]; st.Phase != model.ConnSyncing || cl.isSynced() {
		t.Fatalf("cluster %s (synced %v) while setup is held; want syncing", st.Phase, cl.isSynced())
	}
	for _, r := range snap.Rows() {
		if r.Org == "weird_org" {
			t.Fatalf("%s has its namespace's org before the namespaces were answered: the gate does not hold", r.App)
		}
	}

	close(g.setup)
	snap = waitFor(t, f, "the synced board with the namespace's org", func(s *store.Snapshot) bool {
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
	for _, r := range snap.Rows() {
		if fresh, ok := f.rebuild(cl, r.Key(), r.ObservedAt); !ok {
			t.Errorf("%s is on the board but not in the caches", r.App)
		} else if diff := cmp.Diff(fresh, *r); diff != "" {
			t.Errorf("%s after the sync differs from a rebuild (-rebuild +board):\n%s", r.App, diff)
		}
	}
}
