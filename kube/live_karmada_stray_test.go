package kube

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Karmada caches a member the board is not configured with: its objects are
// dropped (no rows), and their count is said once, on one member's line.
func TestKarmadaObjectsOfUnconfiguredMembersCountedOnce(t *testing.T) {
	k := karmadatest.Start(t)
	m1 := testcluster.Start(t, testcluster.Options{})
	m2 := testcluster.Start(t, testcluster.Options{})
	m3 := testcluster.Start(t, testcluster.Options{})
	k.Join("member1", m1)
	k.Join("member2", m2)
	k.Join("member3", m3)
	k.Cache("member1", "member2", "member3")
	ctx := ctxT(t)
	for i, m := range []*testcluster.Cluster{m1, m2, m3} {
		m.CreateNamespaces("hanzo")
		for j := range i + 1 {
			if err := m.SeedApp(ctx, "hanzo", fmt.Sprintf("web%d", j), "service", "ghcr.io/hanzoai/web", "v1", 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	proxied, err := ConnectKarmada(KarmadaSource{Name: "karmada", Config: k.Host().AdminConfig(),
		Members: []KarmadaMember{{Cluster: "member1"}, {Cluster: "member2"}}}, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFleet(FleetOptions{}, proxied...)
	f.Start(ctx)
	want := fmt.Sprintf("Karmada (karmada) serves %d objects of clusters not configured as its members: not shown", servedFrom(t, k, "member3"))
	snap := waitFor(t, f, "the unconfigured member's objects counted", func(s *store.Snapshot) bool {
		return slices.ContainsFunc(s.Clusters, func(c model.ClusterState) bool { return slices.Contains(c.Notices, want) }) &&
			len(s.Rows()) == 3
	})
	said := 0
	for _, c := range snap.Clusters {
		if slices.ContainsFunc(c.Notices, func(n string) bool { return strings.Contains(n, "not configured") }) {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the count is said on %d members' lines, want once: %+v", said, snap.Clusters)
	}
}

// servedFrom counts the objects the proxy serves of the board's kinds that
// it says were cached from member, once its Apps are all in.
func servedFrom(t *testing.T, k *karmadatest.Karmada, member string) int {
	t.Helper()
	proxy, err := dynamic.NewForConfig(k.ProxyConfig())
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range karmadatest.Registry {
		gv, _ := schema.ParseGroupVersion(r.APIVersion)
		res := r.Path[strings.LastIndex(r.Path, "/")+1:]
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		l, err := proxy.Resource(gv.WithResource(res)).List(ctx, metav1.ListOptions{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range l.Items {
			if o.GetAnnotations()[karmadatest.CachedFromAnnotation] == member {
				total++
			}
		}
	}
	return total
}
