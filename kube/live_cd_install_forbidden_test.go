package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// Hanzo CD installed later, seen through its CRD by an identity that may
// not read its Applications: the rows stop saying no CD is installed and
// say why their git state is unknown now (forbidden).
func TestLiveGitCDInstalledLaterButForbidden(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	cdReader(t, c, "erin", true)
	must(t, c.AdminClient().RbacV1().RoleBindings("hanzo-cd").Delete(ctxT(t), rbacBinding("hanzo-cd", "erin").Name, metav1.DeleteOptions{}))
	f := startFleet(t, c.UserConfig("erin"), FleetOptions{Namespaces: []string{"hanzo"}})
	if r := waitRow(t, f, key("hanzo", "iam"), "erin's iam", func(r *model.AppView) bool { return r != nil }); !noKind(r) {
		t.Fatalf("git before the CRD = %+v, want unknown (%s)", r.Git, model.GitWhyNoKind)
	}
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	waitRow(t, f, key("hanzo", "iam"), "iam's git unknown as forbidden once Hanzo CD is installed", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitUnknown && r.Git.Why == model.GitWhyForbidden
	})
}
