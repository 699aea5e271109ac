package kube

import (
	"context"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A namespace followed after the start whose Apps and Deployments exist
// before its informers list them: the adds of those first lists mark no
// row (see informerSpec.firstListMarked), so the new scope must build its
// rows itself once listed, with their workloads.
func TestLiveLaterNamespaceRowsAreBuiltFromItsFirstLists(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	bindTenant(t, c, "hanzo", "gina")
	letListNamespaces(t, c, "gina")
	f := startFleet(t, c.UserConfig("gina"), FleetOptions{})
	waitRow(t, f, key("hanzo", "iam"), "first namespace", func(r *model.AppView) bool { return r != nil })

	// Everything in the namespace before gina may read it: her fleet's
	// scope for it lists it all in one go.
	c.CreateNamespaces("tenant-late")
	all := names("shop", 3)
	for _, name := range all {
		seed(t, c, "tenant-late", name, "", "v2.0.0", 1)
	}
	bindTenant(t, c, "tenant-late", "gina")
	for _, name := range all {
		r := waitRow(t, f, key("tenant-late", name), "built from the new scope's first lists", func(r *model.AppView) bool {
			return r != nil && r.Workload.Found
		})
		if r.WaitsOnWorkload() || r.RunningTag != "v2.0.0" {
			t.Errorf("%s: pending %v, running %q; want its Deployment's v2.0.0", name, r.WaitsOnWorkload(), r.RunningTag)
		}
	}
}

// letListNamespaces lets user list and watch namespaces, so a per-namespace
// fleet follows namespaces created later.
func letListNamespaces(t *testing.T, c *testcluster.Cluster, user string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin := c.AdminClient()
	_, err := admin.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "watch-namespaces-" + user},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}}},
	}, metav1.CreateOptions{})
	must(t, err)
	_, err = admin.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user + "-watch-namespaces"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "watch-namespaces-" + user},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}},
	}, metav1.CreateOptions{})
	must(t, err)
}
