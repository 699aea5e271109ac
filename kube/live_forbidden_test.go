package kube

import (
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// An identity that may read Apps but not Deployments in a namespace sees
// "cannot read Deployments in hanzo (forbidden)", health unknown, and a
// refused restart that says so — never "not found".
func TestLiveForbiddenWorkloadsAreUnreadableNotMissing(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	ctx := ctxT(t)
	role := rbacRole("hanzo")
	role.Rules = slices.DeleteFunc(role.Rules, func(r rbacv1.PolicyRule) bool {
		return slices.Contains(r.Resources, "deployments") && slices.Contains(r.Verbs, "list")
	})
	role.Rules = append(role.Rules, rbacv1.PolicyRule{APIGroups: []string{"apps"}, Resources: []string{"statefulsets", "replicasets"}, Verbs: []string{"get", "list", "watch"}})
	_, err := c.AdminClient().RbacV1().Roles("hanzo").Create(ctx, role, metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "frank"), metav1.CreateOptions{})
	must(t, err)

	f := startFleet(t, c.UserConfig("frank"), FleetOptions{Namespaces: []string{"hanzo"}})
	row := waitRow(t, f, key("hanzo", "iam"), "visible to frank", func(r *model.AppView) bool { return r != nil })
	const want = "cannot read Deployments in hanzo (forbidden)"
	if row.Workload.Unreadable != want || row.Health != model.HealthUnknown || !row.HasProblem(model.ProblemUnreadable) {
		t.Errorf("row: workload %+v health %q problems %v; want %q, health unknown", row.Workload, row.Health, row.Problems, want)
	}
	for _, p := range row.Problems {
		if strings.Contains(p.Text, "not found") {
			t.Errorf("forbidden shown as missing: %q", p.Text)
		}
	}
	d := f.CheckRestart(ctx, key("hanzo", "iam"))
	if d.Allowed || !strings.Contains(d.Reason, want) || strings.Contains(d.Reason, "does not exist") {
		t.Errorf("restart decision %+v, want refused with %q", d, want)
	}
}
