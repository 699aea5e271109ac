package kube

import (
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Settled stays open while a cluster's lists are held (its rows already on
// the board, pending), and closes once it has synced; a snapshot taken as
// it closes shows the whole fleet synced, which is what the board's UI
// takes it at once for (rather than at its syncing pace).
func TestLiveSettledOnceSynced(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 8)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	g := newListGate(0) // the workload lists are held
	f, _ := startGatedFleet(t, c, g, FleetOptions{})
	releaseAppsOnceNamespaceKnown(t, f, g, "hanzo")
	waitFor(t, f, "every App on the board, pending", func(s *store.Snapshot) bool { return s.Len() == len(all) })
	select {
	case <-f.Settled():
		t.Fatal("Settled closed while the workload lists are held")
	case <-time.After(200 * time.Millisecond):
	}

	g.releaseAll()
	select {
	case <-f.Settled():
	case <-time.After(60 * time.Second):
		t.Fatal("Settled still open a minute after the lists were let through")
	}
	s := f.Snapshot()
	if len(s.Clusters) != 1 || s.Clusters[0].Phase != model.ConnLive {
		t.Fatalf("at Settled the cluster is %+v, want live", s.Clusters)
	}
	for _, r := range s.Rows() {
		if r.Workload.Pending != "" || !r.Workload.Found {
			t.Errorf("at Settled row %s: workload %+v, want found", r.App, r.Workload)
		}
	}
	if s.Len() != len(all) {
		t.Errorf("at Settled %d rows, want %d", s.Len(), len(all))
	}
}
