package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

const testRevision = "abc1234def5678abc1234def5678abc1234def56"

// cdResource is one status.resources entry naming an App CR.
func cdResource(ns, name, status string) map[string]any {
	return map[string]any{"group": "hanzo.ai", "version": "v1", "kind": "App", "namespace": ns, "name": name,
		"status": status, "health": map[string]any{"status": "Healthy"}}
}

// putApplication creates or replaces an Argo-shaped Application with the
// given status.resources (Argo CD's Application has no status subresource).
func putApplication(t *testing.T, c *testcluster.Cluster, gvr schema.GroupVersionResource, ns, name string, resources ...map[string]any) {
	t.Helper()
	ri := c.AdminDynamic().Resource(gvr).Namespace(ns)
	res := make([]any, len(resources))
	for i, r := range resources {
		res[i] = r
	}
	status := map[string]any{
		"sync":   map[string]any{"status": "OutOfSync", "revision": testRevision},
		"health": map[string]any{"status": "Healthy"},
		"operationState": map[string]any{"phase": "Succeeded", "message": "successfully synced (all tasks run)",
			"finishedAt": "2026-12-01T07:00:00Z"},
		"resources": res,
	}
	got, err := ri.Get(ctxT(t), name, metav1.GetOptions{})
	if err == nil {
		got.Object["status"] = status
		_, err = ri.Update(ctxT(t), got, metav1.UpdateOptions{})
		must(t, err)
		return
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gvr.GroupVersion().String(), "kind": "Application",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{"source": map[string]any{"repoURL": "https://github.com/hanzoai/universe", "path": "infra/k8s/operator/crs"},
			"destination": map[string]any{"namespace": "hanzo"}},
		"status": status,
	}}
	_, err = ri.Create(ctxT(t), obj, metav1.CreateOptions{})
	must(t, err)
}

// One Hanzo CD Application lists iam as OutOfSync and kms as Synced; an
// upstream Argo CD Application lists web. An App no Application lists is
// not managed. A status change moves the row live (watch, no polling).
func TestLiveGitSyncFromCDApplications(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd", "argocd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	c.InstallApplicationCRD(testcluster.ArgoApplicationsGVR.Group)
	for _, n := range []string{"iam", "kms", "web", "lone"} {
		seed(t, c, "hanzo", n, "", "v1.0.0", 1)
	}
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs",
		cdResource("hanzo", "iam", "OutOfSync"), cdResource("hanzo", "kms", "Synced"))
	putApplication(t, c, testcluster.ArgoApplicationsGVR, "argocd", "web", cdResource("hanzo", "web", "Synced"))

	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	iam := waitRow(t, f, key("hanzo", "iam"), "iam out of sync", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitOutOfSync
	})
	if iam.Git.Application != "apps.hanzo.ai/hanzo-cd/universe-crs" || iam.Git.Revision != "abc1234" ||
		iam.Git.Path != "infra/k8s/operator/crs" || iam.Git.LastSync == nil || iam.Git.LastSync.Phase != "Succeeded" ||
		iam.Git.LastSync.FinishedAt.IsZero() {
		t.Errorf("iam git = %+v (last sync %+v)", iam.Git, iam.Git.LastSync)
	}
	snap := f.Snapshot()
	for name, want := range map[string]model.GitState{"kms": model.GitSynced, "web": model.GitSynced, "lone": model.GitNotManaged} {
		if r := findRow(snap, key("hanzo", name)); r == nil || r.Git.State != want {
			t.Errorf("row %s git = %+v, want %s", name, r, want)
		}
	}
	if r := findRow(snap, key("hanzo", "web")); r != nil && r.Git.Application != "argoproj.io/argocd/web" {
		t.Errorf("web's Application = %q, want the argoproj.io one", r.Git.Application)
	}

	// CD synced iam: the row follows the Application's status live.
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs",
		cdResource("hanzo", "iam", "Synced"), cdResource("hanzo", "kms", "OutOfSync"))
	waitRow(t, f, key("hanzo", "iam"), "iam synced after the status change", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitSynced
	})
	waitRow(t, f, key("hanzo", "kms"), "kms out of sync after the status change", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitOutOfSync
	})
	// A status rewrite that moves only kms (Argo CD rewrites its status
	// often): kms follows, iam's row is not even rebuilt.
	before := findRow(f.Snapshot(), key("hanzo", "iam")).ObservedAt
	ri := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	got, err := ri.Get(ctxT(t), "universe-crs", metav1.GetOptions{})
	must(t, err)
	must(t, unstructured.SetNestedField(got.Object, "2026-12-01T07:30:00Z", "status", "reconciledAt"))
	res, _, _ := unstructured.NestedSlice(got.Object, "status", "resources")
	res[1].(map[string]any)["status"] = "Synced"
	must(t, unstructured.SetNestedSlice(got.Object, res, "status", "resources"))
	_, err = ri.Update(ctxT(t), got, metav1.UpdateOptions{})
	must(t, err)
	waitRow(t, f, key("hanzo", "kms"), "kms synced again", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitSynced
	})
	if after := findRow(f.Snapshot(), key("hanzo", "iam")).ObservedAt; !after.Equal(before) {
		t.Errorf("iam's row was rebuilt (observed %s, then %s) though its git state did not move", before, after)
	}

	// The Application goes away: nothing lists iam any more.
	must(t, c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd").Delete(ctxT(t), "universe-crs", metav1.DeleteOptions{}))
	waitRow(t, f, key("hanzo", "iam"), "iam not managed once its Application is deleted", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitNotManaged
	})
}

// No Application CRD at all: the cluster syncs without error and every row's
// git state is unknown because no Application kind is served.
func TestLiveGitNoApplicationKind(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	r := waitRow(t, f, key("hanzo", "iam"), "iam", func(r *model.AppView) bool { return r != nil })
	if r.Git.State != model.GitUnknown || r.Git.Why != model.GitWhyNoKind || r.Git.KindServed() {
		t.Errorf("git without any Application kind = %+v, want unknown (%s)", r.Git, model.GitWhyNoKind)
	}
	for _, cs := range f.Snapshot().Clusters {
		if cs.Phase != model.ConnLive {
			t.Errorf("cluster %s is %s (%s) without an Application CRD, want live", cs.Name, cs.Phase, cs.Reason)
		}
	}
}

// An identity that may read the Apps of one namespace but no Application:
// the git state is unknown (forbidden), never "not managed".
func TestLiveGitForbiddenIsUnknown(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	ctx := ctxT(t)
	_, err := c.AdminClient().RbacV1().Roles("hanzo").Create(ctx, rbacRole("hanzo"), metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "bob"), metav1.CreateOptions{})
	must(t, err)
	f := startFleet(t, c.UserConfig("bob"), FleetOptions{Namespaces: []string{"hanzo"}})
	r := waitRow(t, f, key("hanzo", "iam"), "iam", func(r *model.AppView) bool { return r != nil })
	if r.Git.State != model.GitUnknown || r.Git.Why != model.GitWhyForbidden {
		t.Errorf("git for an identity that may not read Applications = %+v, want unknown (forbidden)", r.Git)
	}
}
