package kube

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestRowsAppearWhileTheListsStream: against a real API server whose App
// stream is held after its first events and whose Deployment and ReplicaSet
// lists are held entirely (a gate in the client's transport, so nothing depends on timing),
// the Apps seen so far are on the board at once, their workloads pending —
// never missing, never healthy, never drift; once the Deployments are
// listed the rows show them while the Apps still stream; once synced, every
// row is built from the caches and an App deleted meanwhile is gone.
func TestRowsAppearWhileTheListsStream(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 24)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	createRawApp(t, c, "hanzo", "svc-999", map[string]any{"role": "service", // no workload at all
		"image": map[string]any{"repository": "ghcr.io/hanzoai/svc-999", "tag": "v1.0.0"}})
	const firstEvents = 8 // svc-000 … svc-007: the stream is in name order

	g := newListGate(firstEvents)
	f, ctx := startGatedFleet(t, c, g, FleetOptions{Principal: principal(superAdmin)})

	// 1. Apps stream held after 8 events, Deployments held: 8 pending rows.
	snap := waitFor(t, f, "the first streamed Apps on the board", func(s *store.Snapshot) bool { return s.Len() >= firstEvents })
	if st := snap.Clusters[0]; st.Phase != model.ConnSyncing {
		t.Fatalf("cluster %s while its lists are held; want syncing", st.Phase)
	}
	if snap.Len() != firstEvents {
		t.Fatalf("%d rows while %d Apps were streamed", snap.Len(), firstEvents)
	}
	for _, r := range snap.Rows() {
		assertPending(t, r)
	}
	if d := f.CheckRestart(ctx, key("hanzo", "svc-000")); d.Allowed || !strings.Contains(d.Reason, "syncing") {
		t.Errorf("restart of a pending row: allowed %v, reason %q", d.Allowed, d.Reason)
	}
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its lists held: the gate does not hold")
	}

	// 2. Deployments listed, ReplicaSets not yet: still pending (what the
	// pods run is not known). Then ReplicaSets listed (there are none: no
	// controllers run, so no event marks the rows), Apps still held: the
	// rows show the real workloads.
	must(t, c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Delete(ctxT(t), "svc-003", metav1.DeleteOptions{}))
	close(g.deployments)
	waitHandled(t, f, "deployments") // its adds mark no row: no change is signalled
	for _, r := range f.Snapshot().Rows() {
		assertPending(t, r)
	}
	close(g.replicasets)
	waitFor(t, f, "the listed Deployments on the provisional rows", func(s *store.Snapshot) bool {
		for _, r := range s.Rows() {
			if r.WaitsOnWorkload() || !r.Workload.Found || r.RunningTag != "v1.0.0" || r.Health == model.HealthSyncing {
				return false
			}
		}
		return s.Len() == firstEvents
	})
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its App stream held")
	}

	// 3. The rest of the stream: every row from the caches, svc-003 gone.
	close(g.apps)
	snap = waitFor(t, f, "the synced board", func(s *store.Snapshot) bool {
		return s.Clusters[0].Phase == model.ConnLive && s.Len() == len(all) && findRow(s, key("hanzo", "svc-003")) == nil
	})
	cl := f.clusters[0]
	for _, r := range snap.Rows() {
		if r.WaitsOnWorkload() || r.Health == model.HealthSyncing {
			t.Errorf("%s still pending after the sync: %+v", r.App, r.Workload)
		}
		// A row the sync did not rebuild (built final while syncing) is what
		// a rebuild from the caches gives.
		if fresh, ok := f.rebuild(cl, r.Key(), r.ObservedAt); !ok {
			t.Errorf("%s is on the board but not in the caches", r.App)
		} else if diff := cmp.Diff(fresh, *r); diff != "" {
			t.Errorf("%s after the sync differs from a rebuild (-rebuild +board):\n%s", r.App, diff)
		}
		if r.Git.Why == model.GitWhyNotSynced {
			t.Errorf("%s keeps the git state of a syncing cluster: %+v", r.App, r.Git)
		}
		if r.App == "svc-999" {
			if !r.HasProblem(model.ProblemNoWorkload) {
				t.Errorf("svc-999 has no Deployment, and once listed that is said: %v", r.Problems)
			}
		} else if !r.Workload.Found || r.RunningTag != "v1.0.0" {
			t.Errorf("%s after the sync: found %v running %q", r.App, r.Workload.Found, r.RunningTag)
		}
	}
}

func assertPending(t *testing.T, r *model.AppView) {
	t.Helper()
	if !r.WaitsOnWorkload() || r.Health != model.HealthSyncing || r.Workload.Found || r.RunningTag != "" {
		t.Errorf("%s: want a pending workload, got health %q running %q workload %+v", r.App, r.Health, r.RunningTag, r.Workload)
	}
	if !strings.Contains(r.Workload.Pending, "not listed yet") {
		t.Errorf("%s: pending without why: %q", r.App, r.Workload.Pending)
	}
	if r.HasProblem(model.ProblemNoWorkload) || len(r.Problems) > 0 {
		t.Errorf("%s: a workload not listed yet reads as a problem: %v", r.App, r.Problems)
	}
	for _, fl := range r.Drift.Flags {
		if fl.Kind == drift.DriftUnrolled || fl.Kind == drift.DriftFloatingRunning {
			t.Errorf("%s: drift %s without a running tag", r.App, fl.Kind)
		}
	}
	if r.Offline {
		t.Errorf("%s: a syncing cluster's row is not offline", r.App)
	}
}

func waitFor(t *testing.T, f *Fleet, what string, ok func(*store.Snapshot) bool) *store.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last *store.Snapshot
	for {
		last = f.Snapshot()
		if ok(last) {
			return last
		}
		select { // on change signals only: a row marked without one would never show
		case <-f.Changed():
		case <-ctx.Done():
			t.Fatalf("%s: never; last snapshot has %d rows, clusters %+v", what, last.Len(), last.Clusters)
		}
	}
}

// TestRowsAppearFromListPages: where the server refuses streaming lists the
// reflector falls back to LIST; the Apps of its pages are on the board,
// pending, while the workload lists are held, and normal once synced.
func TestRowsAppearFromListPages(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 12)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	g := newListGate(0)
	g.refuse = true
	f, _ := startGatedFleet(t, c, g, FleetOptions{})

	snap := waitFor(t, f, "the listed Apps on the board", func(s *store.Snapshot) bool { return s.Len() == len(all) })
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its workload lists held")
	}
	if g.refused.Load() == 0 {
		t.Fatal("no streaming list was refused: the LIST fallback was not exercised")
	}
	for _, r := range snap.Rows() {
		assertPending(t, r)
	}
	for _, n := range snap.Clusters[0].Notices {
		if strings.Contains(n, "could not be read") {
			t.Errorf("notice: %s", n)
		}
	}
	close(g.deployments)
	close(g.replicasets)
	waitFor(t, f, "the synced board", func(s *store.Snapshot) bool {
		if s.Clusters[0].Phase != model.ConnLive || s.Len() != len(all) {
			return false
		}
		for _, r := range s.Rows() {
			if !r.Workload.Found || r.RunningTag != "v1.0.0" {
				return false
			}
		}
		return true
	})
}
