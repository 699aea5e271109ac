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

// A member read through Karmada with a direct context watches the pods of
// its failing rollout on the member itself, as that context's identity, so
// its row names the failing pod as the direct row does.
func TestKarmadaFailingPodsWatchedOnTheMember(t *testing.T) {
	fl := startKarmadaFleets(t)
	admin := fl.members["member1"].AdminClient()
	deploymentsSettled(t, admin, "web")
	ctx := ctxT(t)
	_, err := admin.AppsV1().Deployments("hanzo").Patch(ctx, "web", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"nodeName":"elsewhere"}}}}`), metav1.PatchOptions{})
	must(t, err)
	pod := newPodOn(t, admin, "app.kubernetes.io/name=web", "elsewhere")
	setPodStatus(t, admin, pod, crashLooping)
	want := "CrashLoopBackOff: " + pod
	failing := func(r *model.AppView) bool {
		for _, p := range r.Problems {
			if p.Kind == model.ProblemPodsFailing && p.Label() == want {
				return true
			}
		}
		return false
	}
	k := model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}
	waitRowWithin(t, fl.direct, k, 30*time.Second, failing)
	waitRowWithin(t, fl.proxy, k, 30*time.Second, failing)
	reads := auditReads(t, fl.members["member1"], func(e testcluster.AuditEvent) bool { return e.UserAgent == proxiedActionsAgent })
	for _, r := range reads {
		if r != "list pods" && r != "watch pods" {
			t.Errorf("the fleet through Karmada read %q on member1 directly; only its pods", r)
		}
	}
}

// A member read through Karmada without a context of its own cannot have
// its pods read: its line says failing pods are unknown, and why.
func TestKarmadaPodsUnknownWithoutADirectContext(t *testing.T) {
	fl := startKarmadaFleets(t)
	want := "pods: not read (failing pods unknown): no kubeconfig context of its own to read them from"
	for _, c := range fl.proxy.Snapshot().Clusters {
		if got := slices.Contains(c.Notices, want); got != (c.Name == "member2") {
			t.Errorf("%s: notices %q; want %q only on member2, which has no context", c.Name, c.Notices, want)
		}
	}
}
