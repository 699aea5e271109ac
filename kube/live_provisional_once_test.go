package kube

import (
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model/store"
)

// A row shown while the Apps stream in is built once for what the stream
// brought: the App informer adding the same entries again at the end of its
// list (its handler's first deliveries) builds no row a second time.
func TestStreamedRowsAreBuiltOnce(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 16)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	g := newListGate(0) // the workload lists are held: the rows stay provisional
	f, _ := startGatedFleet(t, c, g, FleetOptions{})
	releaseAppsOnceNamespaceKnown(t, f, g, "hanzo")

	waitFor(t, f, "every streamed App on the board", func(s *store.Snapshot) bool { return s.Len() == len(all) })
	cl := f.clusters[0]
	waitHandled(t, f, "apps")
	f.Snapshot() // builds whatever the handler marked
	if cl.isSynced() {
		t.Fatal("the cluster synced with its workload lists held")
	}
	if n := f.rowsBuilt.Load(); n != int64(len(all)) {
		t.Fatalf("%d rows built for %d Apps streamed once", n, len(all))
	}
}
