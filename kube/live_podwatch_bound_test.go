package kube

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Beyond the bound, a workload waits for a pod watch and the cluster's
// notice says how many wait; a watch freed by a workload turning healthy
// goes to the one waiting, which then names its failing pod.
func TestLivePodWatchBound(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "api", "service", "v1.0.0", 1)
	seed(t, c, "hanzo", "web", "service", "v1.0.0", 1)
	admin := c.AdminClient()
	deploymentsSettled(t, admin, "api", "web")
	f := startFleet(t, c.AdminConfig(), FleetOptions{MaxPodWatches: 1})
	for _, name := range []string{"api", "web"} {
		waitRow(t, f, key("hanzo", name), "settled", healthy)
	}
	ctx := ctxT(t)
	for _, name := range []string{"api", "web"} {
		_, err := admin.AppsV1().Deployments("hanzo").Patch(ctx, name, types.StrategicMergePatchType,
			[]byte(`{"spec":{"template":{"spec":{"nodeName":"elsewhere"}}}}`), metav1.PatchOptions{})
		must(t, err)
	}
	const note = "1 unready workloads wait for a pod watch (at most 1 at once)"
	waitCluster(t, f, "one watch, one waiting", func(st model.ClusterState, _ *store.Snapshot) bool {
		run, wait := f.PodWatches()
		return run == 1 && wait == 1 && slices.ContainsFunc(st.Notices, func(n string) bool { return strings.HasPrefix(n, note) })
	})
	cl := f.byName[testClusterName]
	watched, waiting := key("hanzo", "api"), key("hanzo", "web")
	if cl.pods.Waiting(watched) {
		watched, waiting = waiting, watched
	}

	waitRowWithin(t, f, watched, 60*time.Second, func(r *model.AppView) bool {
		makeReady(t, admin, "app.kubernetes.io/name="+watched.Name, "elsewhere")
		return healthy(r)
	})
	pod := newPodOn(t, admin, "app.kubernetes.io/name="+waiting.Name, "elsewhere")
	setPodStatus(t, admin, pod, crashLooping)
	waitRowWithin(t, f, waiting, 30*time.Second, func(r *model.AppView) bool {
		return slices.ContainsFunc(r.Problems, func(p model.Problem) bool { return p.Label() == "CrashLoopBackOff: "+pod })
	})
	if run, wait := f.PodWatches(); run != 1 || wait != 0 {
		t.Errorf("after the first healed: %d watches, %d waiting; want 1, 0", run, wait)
	}
	for _, n := range f.Snapshot().Clusters[0].Notices {
		if strings.HasPrefix(n, note) {
			t.Errorf("notice left: %q", n)
		}
	}
}
