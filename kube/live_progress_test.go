package kube

import (
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestSyncProgressCountsTheFirstSync: against a real API server, the
// cluster counts the Apps its first sync received (through the streaming
// list) and learns how many there are from a one-item LIST, which is what
// the header's "syncing n/N" shows; once live, the state carries neither.
func TestSyncProgressCountsTheFirstSync(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("team-a", "team-b")
	for i, name := range names("svc", 30) {
		createRawApp(t, c, []string{"team-a", "team-b"}[i%2], name, map[string]any{"role": "service"})
	}
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	waitCluster(t, f, "expected count known", func(model.ClusterState, *store.Snapshot) bool {
		_, expected := f.clusters[0].conn.progress.counts()
		return expected > 0
	})
	listed, expected := f.clusters[0].conn.progress.counts()
	if listed != 30 || expected != 30 {
		t.Fatalf("first sync: listed %d of %d, want 30 of 30", listed, expected)
	}
	st := f.Snapshot().Clusters[0]
	if st.Phase != model.ConnLive || st.Listed != 0 || st.Expected != 0 {
		t.Fatalf("a live cluster's state: %+v; want live without sync counts", st)
	}
	// Changes after the sync are not counted as syncing.
	createRawApp(t, c, "team-a", "late", map[string]any{"role": "service"})
	waitRow(t, f, key("team-a", "late"), "late app", func(*model.AppView) bool { return true })
	if l, _ := f.clusters[0].conn.progress.counts(); l != 30 {
		t.Fatalf("an App created after the sync was counted: listed %d", l)
	}
}
