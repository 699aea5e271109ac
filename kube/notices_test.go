package kube

import (
	"context"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Notices given with a cluster's clients (e.g. which identity it is read
// as) are part of its state from the first snapshot and survive setup.
func TestClusterClientsNoticesReachTheSnapshot(t *testing.T) {
	t.Parallel()
	const said = "IAM token not trusted by this cluster; using kubeconfig identity admin"
	given := []string{said}
	dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{appsGVR: "AppList", cd.CRDs: "CustomResourceDefinitionList"})
	f := NewFleet(FleetOptions{}, ClusterClients{Name: "c", Kube: fake.NewClientset(), Dynamic: dyn, Notices: given})
	given[0] = "mutated by the caller"

	if n := f.Snapshot().Clusters[0].Notices; len(n) != 1 || n[0] != said {
		t.Fatalf("before start: notices %q, want [%q]", n, said)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f.Start(ctx)
	if err := f.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	snap := waitSnapshot(ctx, t, f, func(s *store.Snapshot) bool { return s.Clusters[0].Phase == model.ConnLive })
	if n := snap.Clusters[0].Notices; len(n) == 0 || n[0] != said {
		t.Errorf("live: notices %q, want %q first", n, said)
	}
}

func TestConnStateKeepsFixedNoticesFirst(t *testing.T) {
	t.Parallel()
	c := newConnState("c", time.Now, nil, []string{"fixed"})
	c.setUp([]string{"namespace x: forbidden"})
	got := c.state().Notices
	if !slices.Equal(got, []string{"fixed", "namespace x: forbidden"}) {
		t.Errorf("notices %q", got)
	}
	got[0] = "mutated"
	if c.state().Notices[0] != "fixed" {
		t.Error("a state's notices alias the connection's")
	}
	if n := newConnState("d", time.Now, nil, nil).state().Notices; n != nil {
		t.Errorf("no notices: %q", n)
	}
}
