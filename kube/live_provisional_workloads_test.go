package kube

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// A syncing cluster builds each row once for what its workload lists bring,
// once they are all complete: the adds of those first lists (which trail the
// cache, object by object) mark no row. Before, each row was built again as
// its Deployment's add came in, again as its ReplicaSet's, and again after
// the sync for the adds still queued (at 50,000 Apps ~2.2 builds a row).
func TestWorkloadListsBuildEachRowOnce(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 12)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	g := newListGate(0)
	// No CD Application kind served: the rows built once the workloads are
	// listed are final (their git state known to be unknown), as the sync
	// would build them.
	noCD := []cd.Kind{{GVR: schema.GroupVersionResource{Group: "cd.example.com", Version: "v1", Resource: "applications"}}}
	f, _ := startGatedFleet(t, c, g, FleetOptions{CDKinds: noCD})
	cl := f.clusters[0]
	releaseAppsOnceNamespaceKnown(t, f, g, "hanzo")

	// 1. The Apps streamed, the workload lists held: one pending build a row.
	waitFor(t, f, "every streamed App on the board", func(s *store.Snapshot) bool { return s.Len() == len(all) })
	waitHandled(t, f, "apps")
	f.Snapshot()
	if n := f.rowsBuilt.Load(); n != int64(len(all)) {
		t.Fatalf("%d rows built for %d Apps streamed", n, len(all))
	}

	// 2. The Deployments listed, the ReplicaSets still held: no row can say
	// what runs yet, so none is built again.
	close(g.deployments)
	waitHandled(t, f, "deployments")
	for _, r := range f.Snapshot().Rows() {
		assertPending(t, r)
	}
	if n := f.rowsBuilt.Load(); n != int64(len(all)) {
		t.Fatalf("%d rows built once the Deployments were listed; want still %d (none rebuilt for its Deployment's add)", n, len(all))
	}

	// 3. The ReplicaSets listed: synced, each row built once more, from
	// complete caches (each equals a rebuild), and once only.
	close(g.replicasets)
	for what := range cl.scopeFor("hanzo").handled { // the cluster-wide scope's informers
		waitHandled(t, f, what)
	}
	waitFor(t, f, "the synced board", func(s *store.Snapshot) bool { return s.Clusters[0].Phase == model.ConnLive })
	snap := f.Snapshot() // whatever the handlers marked, all their first lists through
	if n := f.rowsBuilt.Load(); n != int64(2*len(all)) {
		t.Fatalf("%d rows built for %d Apps: want each built twice (pending, then with its workload)", n, len(all))
	}
	for _, r := range snap.Rows() {
		if r.WaitsOnWorkload() || !r.Workload.Found || r.RunningTag != "v1.0.0" {
			t.Errorf("%s after the sync: pending %v found %v running %q", r.App, r.WaitsOnWorkload(), r.Workload.Found, r.RunningTag)
		}
		if fresh, ok := f.rebuild(cl, r.Key(), r.ObservedAt); !ok {
			t.Errorf("%s is on the board but not in the caches", r.App)
		} else if diff := cmp.Diff(fresh, *r); diff != "" {
			t.Errorf("%s after the sync differs from a rebuild (-rebuild +board):\n%s", r.App, diff)
		}
	}
}

// waitHandled waits until the cluster-wide informers of whats have been
// through their handlers' first lists.
func waitHandled(t *testing.T, f *Fleet, whats ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, what := range whats {
		handled := func() bool {
			s := f.clusters[0].scopeFor("")
			if s == nil {
				return false
			}
			h, ok := s.handled[what]
			return ok && h()
		}
		if !cache.WaitForCacheSync(ctx.Done(), handled) {
			t.Fatalf("the %s informer's handler never had its first list", what)
		}
	}
}

// releaseAppsOnceNamespaceKnown lets the App stream through once the
// namespace watch has had ns. Rows built before their namespace's labels
// are known are rightly built again when the labels come (markNamespaceDirty),
// which a count of builds would take for a build too many.
func releaseAppsOnceNamespaceKnown(t *testing.T, f *Fleet, g *listGate, ns string) {
	t.Helper()
	known := func() bool { return f.clusters[0].namespaceLabelsOf(ns) != nil }
	if err := pollUntil(ctxT(t), known); err != nil {
		t.Fatalf("the namespace watch never had %s: %v", ns, err)
	}
	close(g.apps)
}
