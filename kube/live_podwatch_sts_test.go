package kube

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A StatefulSet's crash-looping pod is named too (its pods' controller is
// the set itself), and its watch stops once the set is healthy again.
func TestLivePodWatchStatefulSet(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "db", "sql", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	waitRow(t, f, key("hanzo", "db"), "settled", healthy)
	admin := c.AdminClient()
	_, err := admin.AppsV1().StatefulSets("hanzo").Patch(ctxT(t), "db", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"nodeName":"elsewhere"}}}}`), metav1.PatchOptions{})
	must(t, err)
	pod := newPodOn(t, admin, "app.kubernetes.io/name=db", "elsewhere")
	setPodStatus(t, admin, pod, crashLooping)
	waitRowWithin(t, f, key("hanzo", "db"), 30*time.Second, func(r *model.AppView) bool {
		return slices.ContainsFunc(r.Problems, func(p model.Problem) bool { return p.Label() == "CrashLoopBackOff: "+pod })
	})
	setPodStatus(t, admin, pod, readyStatus)
	waitRow(t, f, key("hanzo", "db"), "healthy again", healthy)
	if run, _ := f.PodWatches(); run != 0 {
		t.Errorf("healthy again: %d pod watches", run)
	}
}
