package kube

import (
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A second CD installed beside the first while the board runs (Argo CD's
// Application CRD after Hanzo CD's was found): its Applications are
// followed too, so an App only Argo CD manages no longer says
// "not-managed", and the first CD's rows keep their state.
func TestLiveGitFollowsASecondCDInstalledLater(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd", "argocd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	seed(t, c, "hanzo", "kv", "", "v1.0.0", 1)
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	iam, kv := key("hanzo", "iam"), key("hanzo", "kv")
	waitRow(t, f, iam, "iam synced by Hanzo CD", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitSynced })
	waitRow(t, f, kv, "kv not managed", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitNotManaged })

	c.InstallApplicationCRD(testcluster.ArgoApplicationsGVR.Group)
	putApplication(t, c, testcluster.ArgoApplicationsGVR, "argocd", "kv", cdResource("hanzo", "kv", "OutOfSync"))
	r := waitRow(t, f, kv, "kv out of sync by Argo CD, installed later", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitOutOfSync
	})
	if r.Git.Application != "argoproj.io/argocd/kv" {
		t.Errorf("kv's git = %+v, want Argo CD's Application", r.Git)
	}
	if r := findRow(f.Snapshot(), iam); r == nil || r.Git.State != model.GitSynced || r.Git.Application != "apps.hanzo.ai/hanzo-cd/universe-crs" {
		t.Errorf("iam's git after Argo CD came = %+v, want still synced by Hanzo CD", r)
	}
	if st := f.Snapshot().Clusters[0]; st.Phase != model.ConnLive {
		t.Errorf("cluster %s (%s), want live", st.Phase, st.Reason)
	}
}
