package kube

import (
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// On a real API server: the App's YAML is what a GET returns (the spec the
// board reads, managedFields dropped); an App gone says "not found"; an
// identity that may list and watch Apps but not get one is told it may not,
// never "not found".
func TestLiveAppYAML(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.2.3", 1)
	ctx := ctxT(t)

	admin := startFleet(t, c.AdminConfig(), FleetOptions{})
	waitRow(t, admin, key("hanzo", "iam"), "on the board", func(r *model.AppView) bool { return r != nil })
	text, err := admin.AppYAML(ctx, key("hanzo", "iam"))
	must(t, err)
	for _, want := range []string{"apiVersion: hanzo.ai/v1", "kind: App", "  name: iam", "  namespace: hanzo", "v1.2.3", "resourceVersion:"} {
		if !strings.Contains(text, want) {
			t.Errorf("YAML lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "managedFields") {
		t.Errorf("managedFields kept:\n%s", text)
	}
	if _, err := admin.AppYAML(ctx, key("hanzo", "gone")); err == nil || !strings.Contains(err.Error(), "App hanzo/gone not found") {
		t.Errorf("missing App: err %v, want not found", err)
	}

	role := rbacRole("hanzo")
	role.Rules[0] = rbacv1.PolicyRule{APIGroups: []string{"hanzo.ai"}, Resources: []string{"apps", "services"}, Verbs: []string{"list", "watch"}}
	_, err = c.AdminClient().RbacV1().Roles("hanzo").Create(ctx, role, metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "frank"), metav1.CreateOptions{})
	must(t, err)
	frank := startFleet(t, c.UserConfig("frank"), FleetOptions{Namespaces: []string{"hanzo"}})
	waitRow(t, frank, key("hanzo", "iam"), "visible to frank", func(r *model.AppView) bool { return r != nil })
	_, err = frank.AppYAML(ctx, key("hanzo", "iam"))
	if err == nil || !strings.Contains(err.Error(), "may not get apps.hanzo.ai in namespace hanzo") || strings.Contains(err.Error(), "not found") {
		t.Errorf("forbidden GET: err %v, want refused, not missing", err)
	}
}
