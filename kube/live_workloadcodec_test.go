package kube

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/wire"
)

// Against a real API server the Deployments the informers stream are read
// in place (workloadCodecs), and the cache holds what the transform makes
// of the typed client's own decoding, after the first sync and after a
// watch event.
func TestLiveWorkloadsReadInPlace(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("team-a")
	all := names("svc", 5)
	for _, name := range all {
		seed(t, c, "team-a", name, "service", "v1.0.0", 2)
	}
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	cl := f.clusters[0]
	if cl.clients.workloads == nil {
		t.Fatal("NewClusterClients made no apps/v1 client with workloadCodecs for a real cluster")
	}
	if n := cl.clients.workloadsInPlace.Load(); n < int64(len(all)) {
		t.Fatalf("%d workload objects read in place in the first sync, want the %d Deployments at least", n, len(all))
	}
	sameAsTyped := func(what, name string) {
		t.Helper()
		d, err := c.AdminClient().AppsV1().Deployments("team-a").Get(ctxT(t), name, metav1.GetOptions{})
		must(t, err)
		want, _ := wire.TransformDeployment(d)
		got := cl.scopeFor("team-a").get("deployments", "team-a", name)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: %s cached %+v; the typed client's decoding makes %+v", what, name, got, want)
		}
	}
	for _, name := range all {
		sameAsTyped("first sync", name)
	}

	before := cl.clients.workloadsInPlace.Load()
	_, err := c.AdminClient().AppsV1().Deployments("team-a").Patch(ctxT(t), "svc-002", types.MergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"ghcr.io/hanzoai/svc-002:v1.1.0"}]}}}}`), metav1.PatchOptions{})
	must(t, err)
	if err := pollUntil(ctxT(t), func() bool {
		d, _ := cl.scopeFor("team-a").get("deployments", "team-a", "svc-002").(*wire.WorkloadEntry)
		return d != nil && len(d.W.Containers) == 1 && d.W.Containers[0].Image == "ghcr.io/hanzoai/svc-002:v1.1.0"
	}); err != nil {
		t.Fatalf("the patched Deployment never reached the cache: %v", err)
	}
	if cl.clients.workloadsInPlace.Load() <= before {
		t.Error("the watch event was not read in place")
	}
	sameAsTyped("after a watch event", "svc-002")
}
