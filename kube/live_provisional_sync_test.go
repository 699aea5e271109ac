package kube

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestSyncRebuildsTheProvisionalRows: the step that ends a cluster's sync
// (endProvisional) on its own. Rows are shown pending while the workload
// lists are held; the first App stream is then cut and streamed again, so an
// App deleted in between never reaches the cache and no watch event says it
// went: only the sync's rebuild can take its row away. The workload lists
// complete with data that changes the rows (a Deployment running another tag
// than the App declares, an App with no workload); once synced every row is
// the one a rebuild from the caches gives.
func TestSyncRebuildsTheProvisionalRows(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "a-drift", "service", "v1.0.0", 1)
	patchApp(t, c, "hanzo", "a-drift", `{"spec":{"image":{"tag":"v2.0.0"}}}`) // its Deployment still runs v1.0.0
	seed(t, c, "hanzo", "a-gone", "service", "v1.0.0", 1)
	createRawApp(t, c, "hanzo", "a-nowl", map[string]any{"role": "service", // no workload at all
		"image": map[string]any{"repository": "ghcr.io/hanzoai/a-nowl", "tag": "v1.0.0"}})
	seed(t, c, "hanzo", "a-ok", "service", "v1.0.0", 1)
	svcs := names("svc", 6)
	for _, name := range svcs {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	const firstEvents = 4 // the stream is in name order: a-drift, a-gone, a-nowl, a-ok
	g := newListGate(firstEvents)
	g.cut = make(chan struct{})
	f, _ := startGatedFleet(t, c, g, FleetOptions{Principal: principal(superAdmin)})
	gone, drifted, noWorkload := key("hanzo", "a-gone"), key("hanzo", "a-drift"), key("hanzo", "a-nowl")

	// 1. Four Apps streamed, the workload lists held: four pending rows.
	snap := waitFor(t, f, "the first streamed Apps", func(s *store.Snapshot) bool { return s.Len() >= firstEvents })
	if snap.Len() != firstEvents || findRow(snap, gone) == nil {
		t.Fatalf("%d rows, a-gone among them: %v; want the %d streamed Apps", snap.Len(), findRow(snap, gone) != nil, firstEvents)
	}
	for _, r := range snap.Rows() {
		assertPending(t, r)
	}

	// 2. a-gone deleted, then the stream cut: the list streams again
	// without it (held after a-drift, a-nowl, a-ok, svc-000). Its row stays:
	// it was seen, and nothing has said it went.
	must(t, c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Delete(ctxT(t), "a-gone", metav1.DeleteOptions{}))
	close(g.cut)
	waitFor(t, f, "the second stream's new App", func(s *store.Snapshot) bool { return findRow(s, key("hanzo", svcs[0])) != nil })
	if n := g.streams.Load(); n != 2 {
		t.Fatalf("%d App streams; want the cut one and its retry", n)
	}
	// "syncing n/N" counts what the list streaming now brought, never the
	// cut try's Apps on top (that read as twice the progress there is).
	if st := f.Snapshot().Clusters[0]; st.Listed != firstEvents {
		t.Errorf("after the stream was cut and streamed again: syncing %d/%d, want %d (the retry's Apps only)", st.Listed, st.Expected, firstEvents)
	}

	// 3. The workload lists complete while the Apps are held: the rows show
	// their workloads; a-gone is still built from what the first stream
	// brought (its Deployment exists).
	close(g.deployments)
	close(g.replicasets)
	waitFor(t, f, "the listed workloads on the rows", func(s *store.Snapshot) bool {
		for _, r := range s.Rows() {
			if r.WaitsOnWorkload() || r.Health == model.HealthSyncing {
				return false
			}
		}
		r := findRow(s, noWorkload)
		return r != nil && r.HasProblem(model.ProblemNoWorkload)
	})
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its App stream held")
	}
	if findRow(f.Snapshot(), gone) == nil {
		t.Fatal("a-gone left the board before the sync: the test no longer needs the sync's rebuild")
	}

	// 4. The rest of the stream: synced, a-gone gone, every row a rebuild.
	close(g.apps)
	want := 3 + len(svcs) // a-drift, a-nowl, a-ok and the svc-*
	snap = waitFor(t, f, "the synced board without a-gone", func(s *store.Snapshot) bool {
		return s.Clusters[0].Phase == model.ConnLive && s.Len() == want && findRow(s, gone) == nil
	})
	cl := f.clusters[0]
	for _, r := range snap.Rows() {
		if r.WaitsOnWorkload() || r.Health == model.HealthSyncing || r.Git.Why == model.GitWhyNotSynced {
			t.Errorf("%s still provisional after the sync: health %q workload %+v git %+v", r.App, r.Health, r.Workload, r.Git)
		}
		if fresh, ok := f.rebuild(cl, r.Key(), r.ObservedAt); !ok {
			t.Errorf("%s is on the board but not in the caches", r.App)
		} else if diff := cmp.Diff(fresh, *r); diff != "" {
			t.Errorf("%s after the sync differs from a rebuild (-rebuild +board):\n%s", r.App, diff)
		}
		switch r.Key() {
		case drifted:
			if r.DeclaredTag != "v2.0.0" || r.RunningTag != "v1.0.0" || !hasDrift(r, drift.DriftUnrolled) {
				t.Errorf("a-drift: declared %q running %q drift %v; want v2.0.0 declared, v1.0.0 running, unrolled",
					r.DeclaredTag, r.RunningTag, r.Drift.Flags)
			}
		case noWorkload:
			if r.Workload.Found || !r.HasProblem(model.ProblemNoWorkload) {
				t.Errorf("a-nowl: found %v problems %v; want no workload, said so", r.Workload.Found, r.Problems)
			}
		default:
			if !r.Workload.Found || r.RunningTag != "v1.0.0" || len(r.Drift.Flags) > 0 {
				t.Errorf("%s: found %v running %q drift %v", r.App, r.Workload.Found, r.RunningTag, r.Drift.Flags)
			}
		}
	}
}

func hasDrift(r *model.AppView, kind drift.DriftKind) bool {
	for _, fl := range r.Drift.Flags {
		if fl.Kind == kind {
			return true
		}
	}
	return false
}
