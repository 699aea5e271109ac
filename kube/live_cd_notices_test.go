package kube

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
)

// A notice about CD describes the watch it is about now: erin may not read
// Hanzo CD's Applications at start (a notice says so) but may watch the CD
// CRDs by name. Granted the Applications, and the watch set up again when
// Argo CD is installed, no notice says Hanzo CD's Applications are not
// readable any more (the start's notice went with the watch it was about),
// while Argo CD's, still unreadable, is said once.
func TestLiveCDNoticesFollowTheWatch(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd", "argocd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	cdReader(t, c, "erin", true)
	bindings := c.AdminClient().RbacV1().RoleBindings("hanzo-cd")
	must(t, bindings.Delete(ctxT(t), rbacBinding("hanzo-cd", "erin").Name, metav1.DeleteOptions{}))
	f := startFleet(t, c.UserConfig("erin"), FleetOptions{Namespaces: []string{"hanzo"}})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "iam's git unknown: Applications forbidden", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitUnknown && r.Git.Why == model.GitWhyForbidden
	})
	hanzoUnreadable := func(n string) bool {
		return strings.HasPrefix(n, "applications.apps.hanzo.ai: Applications not readable")
	}
	if n := f.Snapshot().Clusters[0].Notices; !slices.ContainsFunc(n, hanzoUnreadable) {
		t.Fatalf("at start, no notice says Hanzo CD's Applications are not readable: %q", n)
	}

	b := rbacBinding("hanzo-cd", "erin")
	b.RoleRef.Name = "cd-erin"
	_, err := bindings.Create(ctxT(t), b, metav1.CreateOptions{})
	must(t, err)
	erin, err := dynamic.NewForConfig(c.UserConfig("erin"))
	must(t, err)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := erin.Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd").List(ctxT(t), metav1.ListOptions{Limit: 1})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("erin's grant to read Hanzo CD's Applications not in force after 30 s: %v", err)
		}
	}
	c.InstallApplicationCRD(testcluster.ArgoApplicationsGVR.Group)
	waitRow(t, f, iam, "iam synced by Hanzo CD once the watch is set up again", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitSynced
	})
	n := f.Snapshot().Clusters[0].Notices
	if slices.ContainsFunc(n, hanzoUnreadable) {
		t.Errorf("Hanzo CD's Applications are read, yet a notice still says not: %q", n)
	}
	argoUnreadable := func(s string) bool {
		return strings.HasPrefix(s, "applications.argoproj.io: Applications not readable")
	}
	if i := slices.IndexFunc(n, argoUnreadable); i < 0 || slices.ContainsFunc(n[i+1:], argoUnreadable) {
		t.Errorf("want one notice that Argo CD's Applications are not readable: %q", n)
	}
}

// An identity that may read Hanzo CD's Applications but not watch CRDs
// cannot follow a second CD kind installed later: a notice says so, and a
// row no Application lists says which kind was not read (not a bare
// "not-managed" that reads as checked everywhere).
func TestLiveGitSaysWhichCDKindIsNotFollowed(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	seed(t, c, "hanzo", "kv", "", "v1.0.0", 1)
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	cdReader(t, c, "bob", false)
	f := startFleet(t, c.UserConfig("bob"), FleetOptions{Namespaces: []string{"hanzo"}})
	waitRow(t, f, key("hanzo", "iam"), "iam synced", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitSynced })
	r := waitRow(t, f, key("hanzo", "kv"), "kv not managed", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitNotManaged })
	if !strings.Contains(r.Git.Why, "not read: applications.argoproj.io") || !strings.Contains(r.Git.Why, "seen after a restart") {
		t.Errorf("kv's not-managed says %q, want that Argo CD's Applications were not read and why", r.Git.Why)
	}
	n := f.Snapshot().Clusters[0].Notices
	i := slices.IndexFunc(n, func(s string) bool { return strings.HasPrefix(s, cd.NoticeKindNotWatched) })
	if i < 0 || !strings.Contains(n[i], "applications.argoproj.io: forbidden") {
		t.Errorf("no notice that a second CD kind installed later goes unseen (CRDs forbidden): %q", n)
	}
}
