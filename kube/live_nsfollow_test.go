package kube

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// In per-namespace mode (no cluster-wide read), a namespace created later
// is watched once it is readable, even when its RoleBinding comes after
// it, and dropped when deleted. An identity that cannot list namespaces is
// told the board will not pick new ones up.
func TestLivePerNamespaceModeFollowsNamespaces(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	ctx := ctxT(t)
	admin := c.AdminClient()
	bindTenant(t, c, "hanzo", "gina")
	_, err := admin.RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "hank"), metav1.CreateOptions{})
	must(t, err)
	letListNamespaces(t, c, "gina")

	gina := startFleet(t, c.UserConfig("gina"), FleetOptions{})
	hank := startFleet(t, c.UserConfig("hank"), FleetOptions{})
	for _, f := range []*Fleet{gina, hank} {
		waitRow(t, f, key("hanzo", "iam"), "first namespace", func(r *model.AppView) bool { return r != nil })
	}
	notices := func(f *Fleet) []string { return f.Snapshot().Clusters[0].Notices }
	if n := notices(hank); !slices.Contains(n, NotFollowingNamespaces) {
		t.Errorf("hank cannot list namespaces; notices %q, want %q", n, NotFollowingNamespaces)
	}
	if n := notices(gina); slices.Contains(n, NotFollowingNamespaces) {
		t.Errorf("gina can list namespaces; notices %q", n)
	}

	// A namespace made after the start; its RoleBinding and App follow.
	c.CreateNamespaces("tenant-late")
	cl := gina.byName[testClusterName]
	if cl.follow == nil {
		t.Fatal("gina may list namespaces, but her fleet does not follow them")
	}
	probed := func() bool { // found unreadable: the binding comes later, as a platform's would
		cl.follow.mu.Lock()
		defer cl.follow.mu.Unlock()
		_, ok := cl.follow.retryAt["tenant-late"]
		return ok
	}
	if err := pollUntil(ctxT(t), probed); err != nil {
		t.Fatalf("gina's fleet never probed the new namespace: %v", err)
	}
	bindTenant(t, c, "tenant-late", "gina")
	_, err = admin.RbacV1().RoleBindings("tenant-late").Create(ctx, rbacBinding("tenant-late", "hank"), metav1.CreateOptions{})
	must(t, err)
	seed(t, c, "tenant-late", "shop", "", "v1.0.0", 1)
	waitRow(t, gina, key("tenant-late", "shop"), "picked up", func(r *model.AppView) bool {
		return r != nil && r.Workload.Found
	})
	if findRow(hank.Snapshot(), key("tenant-late", "shop")) != nil {
		t.Errorf("hank picked up a namespace while saying it cannot")
	}

	must(t, admin.CoreV1().Namespaces().Delete(ctx, "tenant-late", metav1.DeleteOptions{}))
	waitRow(t, gina, key("tenant-late", "shop"), "gone with its namespace", func(r *model.AppView) bool { return r == nil })
	if err := pollUntil(ctxT(t), func() bool { return !cl.hasScope("tenant-late") }); err != nil {
		t.Errorf("the deleted namespace's watches still run: %v", err)
	}
}
