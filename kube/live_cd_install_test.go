package kube

import (
	"slices"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
)

// cdReader lets user read Hanzo CD's Applications in hanzo-cd and the Apps
// of hanzo; with crds, also the two Application CRDs, by name only.
func cdReader(t *testing.T, c *testcluster.Cluster, user string, crds bool) {
	t.Helper()
	ctx, rb := ctxT(t), c.AdminClient().RbacV1()
	_, err := rb.Roles("hanzo").Create(ctx, rbacRole("hanzo"), metav1.CreateOptions{})
	if err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
	_, err = rb.RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", user), metav1.CreateOptions{})
	must(t, err)
	apps := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "cd-" + user, Namespace: "hanzo-cd"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"apps.hanzo.ai"}, Resources: []string{"applications"}, Verbs: []string{"get", "list", "watch"}}}}
	_, err = rb.Roles("hanzo-cd").Create(ctx, apps, metav1.CreateOptions{})
	must(t, err)
	b := rbacBinding("hanzo-cd", user)
	b.RoleRef.Name = apps.Name
	_, err = rb.RoleBindings("hanzo-cd").Create(ctx, b, metav1.CreateOptions{})
	must(t, err)
	if !crds {
		return
	}
	cr := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "cd-crds-" + user},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"},
			ResourceNames: []string{"applications.apps.hanzo.ai", "applications.argoproj.io"}, Verbs: []string{"get", "list", "watch"}}}}
	_, err = rb.ClusterRoles().Create(ctx, cr, metav1.CreateOptions{})
	must(t, err)
	_, err = rb.ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: cr.Name},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: cr.Name},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}}}, metav1.CreateOptions{})
	must(t, err)
}

func noKind(r *model.AppView) bool {
	return r != nil && r.Git.State == model.GitUnknown && r.Git.Why == model.GitWhyNoKind
}

// Hanzo CD installed into a running cluster: boards started without the
// Application CRD say "no Application kind served" until it is established,
// then follow the Application with no restart — cluster-wide (admin), and for
// an identity granted the CRDs by name only and Applications in hanzo-cd.
func TestLiveGitFollowsCDInstalledLater(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	cdReader(t, c, "carol", true)
	fleets := map[string]*Fleet{
		"admin": startFleet(t, c.AdminConfig(), FleetOptions{}),
		"carol": startFleet(t, c.UserConfig("carol"), FleetOptions{Namespaces: []string{"hanzo"}}),
	}
	for who, f := range fleets {
		if r := waitRow(t, f, key("hanzo", "iam"), who+"'s iam", func(r *model.AppView) bool { return r != nil }); !noKind(r) {
			t.Fatalf("%s: git before the CRD = %+v, want unknown (%s)", who, r.Git, model.GitWhyNoKind)
		}
		if n := f.Snapshot().Clusters[0].Notices; slices.ContainsFunc(n, func(s string) bool { return strings.HasPrefix(s, cd.NoticeInstallNotWatched) }) {
			t.Errorf("%s may watch the CRDs, yet a notice says not: %q", who, n)
		}
	}
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "OutOfSync"))
	for who, f := range fleets {
		r := waitRow(t, f, key("hanzo", "iam"), who+"'s iam out of sync after Hanzo CD was installed", func(r *model.AppView) bool {
			return r != nil && r.Git.State == model.GitOutOfSync
		})
		if r.Git.Application != "apps.hanzo.ai/hanzo-cd/universe-crs" || r.Git.Revision != "abc1234" {
			t.Errorf("%s: iam's git = %+v", who, r.Git)
		}
	}
	// Followed like any Application from then on.
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	for who, f := range fleets {
		waitRow(t, f, key("hanzo", "iam"), who+"'s iam synced", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitSynced })
	}
}

// An identity that may not watch CustomResourceDefinitions (an OrgAdmin's
// usual grant) keeps the git state decided at start, and a notice says a CD
// installed later is seen after a restart. An admin board on the same
// cluster shows the install was there to be seen.
func TestLiveGitCDInstallNotWatchable(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	cdReader(t, c, "bob", false)
	bob := startFleet(t, c.UserConfig("bob"), FleetOptions{Namespaces: []string{"hanzo"}})
	if r := waitRow(t, bob, key("hanzo", "iam"), "bob's iam", func(r *model.AppView) bool { return r != nil }); !noKind(r) {
		t.Fatalf("git before the CRD = %+v, want unknown (%s)", r.Git, model.GitWhyNoKind)
	}
	notices := bob.Snapshot().Clusters[0].Notices
	i := slices.IndexFunc(notices, func(s string) bool { return strings.HasPrefix(s, cd.NoticeInstallNotWatched) })
	if i < 0 || !strings.Contains(notices[i], "applications.apps.hanzo.ai: forbidden") {
		t.Fatalf("no notice that a later CD install goes unseen (CRDs forbidden): %q", notices)
	}
	admin := startFleet(t, c.AdminConfig(), FleetOptions{})
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "OutOfSync"))
	waitRow(t, admin, key("hanzo", "iam"), "admin's iam out of sync", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitOutOfSync
	})
	time.Sleep(2 * time.Second) // what the admin board saw had as long to reach bob's
	if r := findRow(bob.Snapshot(), key("hanzo", "iam")); !noKind(r) {
		t.Errorf("bob's git after the install = %+v, want still unknown (%s) until a restart", r.Git, model.GitWhyNoKind)
	}
}
