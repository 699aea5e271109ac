package kube

import (
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
)

// Hanzo CD uninstalled while a finalizer on one of its Applications holds
// the CRD's cleanup: the API server has deleted the Application that lists
// iam, and the CRD, marked deleted, is not gone yet. iam never says
// not-managed (CD reported no such thing; its Applications are going):
// its git state turns unknown, "no Application kind served", at once, and
// stays so once the CRD is gone.
func TestLiveGitNeverNotManagedWhileCDIsUninstalled(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	gvr := testcluster.HanzoCDApplicationsGVR
	c.InstallApplicationCRD(gvr.Group)
	putApplication(t, c, gvr, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	putApplication(t, c, gvr, "hanzo-cd", "holder")
	ctx := ctxT(t)
	apps := c.AdminDynamic().Resource(gvr).Namespace("hanzo-cd")
	_, err := apps.Patch(ctx, "holder", types.MergePatchType, []byte(`{"metadata":{"finalizers":["test.hanzo.ai/hold"]}}`), metav1.PatchOptions{})
	must(t, err)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "iam synced", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitSynced })

	crds := c.AdminDynamic().Resource(cd.CRDs)
	name := cd.CRDName(cd.Kind{GVR: gvr})
	must(t, crds.Delete(ctx, name, metav1.DeleteOptions{}))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := apps.Get(ctx, "universe-crs", metav1.GetOptions{}); apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the CRD's cleanup did not delete universe-crs within 30 s")
		}
	}
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		r := findRow(f.Snapshot(), iam)
		if r == nil {
			t.Fatal("iam left the board while CD's CRD is being deleted")
		}
		if r.Git.State == model.GitNotManaged {
			t.Fatalf("while CD's CRD is being deleted, iam's git = %+v: not-managed is no state CD reported", r.Git)
		}
	}
	waitRow(t, f, iam, "iam's git unknown (no CD) while the CRD is held", noKind)

	_, err = apps.Patch(ctx, "holder", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	must(t, err)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := crds.Get(ctx, name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CRD %s not gone 30 s after its last Application's finalizer went", name)
		}
	}
	time.Sleep(time.Second)
	if r := findRow(f.Snapshot(), iam); !noKind(r) {
		t.Errorf("after the CRD went, iam's git = %+v, want unknown (%s)", r.Git, model.GitWhyNoKind)
	}
}
