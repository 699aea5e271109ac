package kube

import (
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
)

// uninstallApplicationCRD deletes Hanzo CD's Application CRD (its
// Applications go with it) and waits until it is gone.
func uninstallApplicationCRD(t *testing.T, c *testcluster.Cluster) {
	t.Helper()
	ctx := ctxT(t)
	crds := c.AdminDynamic().Resource(cd.CRDs)
	name := cd.CRDName(cd.Kind{GVR: testcluster.HanzoCDApplicationsGVR})
	must(t, crds.Delete(ctx, name, metav1.DeleteOptions{}))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := crds.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CRD %s not gone 30 s after its deletion: %v", name, err)
		}
	}
}

// Hanzo CD uninstalled while the board runs (its Application CRD deleted):
// the rows' git state is no longer the last one seen but unknown, "no
// Application kind served", as on a board started without it; the cluster
// stays live (its Apps still flow). Installed again, it is followed again —
// for the admin and for an identity granted the CRDs by name only; one that
// may not watch them (bob) keeps "no Application kind served", and a notice
// says a reinstall is seen after a restart.
func TestLiveGitFollowsCDUninstalledAndReinstalled(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	cdReader(t, c, "carol", true)
	cdReader(t, c, "bob", false)
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "OutOfSync"))
	fleets := map[string]*Fleet{
		"admin": startFleet(t, c.AdminConfig(), FleetOptions{}),
		"carol": startFleet(t, c.UserConfig("carol"), FleetOptions{Namespaces: []string{"hanzo"}}),
		"bob":   startFleet(t, c.UserConfig("bob"), FleetOptions{Namespaces: []string{"hanzo"}}),
	}
	iam := key("hanzo", "iam")
	for who, f := range fleets {
		waitRow(t, f, iam, who+"'s iam out of sync", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitOutOfSync })
	}

	uninstallApplicationCRD(t, c)
	for who, f := range fleets {
		r := waitRow(t, f, iam, who+"'s iam: git unknown once CD is uninstalled", func(r *model.AppView) bool {
			return noKind(r) && !r.Offline
		})
		if st := f.Snapshot().Clusters[0]; st.Phase != model.ConnLive {
			t.Errorf("%s: cluster %s (%s) after CD was uninstalled, want live: its Apps still flow", who, st.Phase, st.Reason)
		}
		if cell := model.GitCell(r.Git); cell != "unknown(no-cd)" {
			t.Errorf("%s: git cell %q after the uninstall", who, cell)
		}
	}
	unseen := func(s string) bool { return strings.HasPrefix(s, cd.NoticeInstallNotWatched) }
	for who, f := range fleets {
		if n := f.Snapshot().Clusters[0].Notices; slices.ContainsFunc(n, unseen) != (who == "bob") {
			t.Errorf("%s's notices after the uninstall: %q (only bob may not watch the CRDs)", who, n)
		}
	}
	time.Sleep(3 * time.Second) // it stays so: no stale git state comes back, the cluster is not marked down
	for who, f := range fleets {
		s := f.Snapshot()
		if r := findRow(s, iam); !noKind(r) || r.Offline || s.Clusters[0].Phase != model.ConnLive {
			t.Errorf("%s: 3 s later the row is %+v (offline %v), cluster %s", who, r.Git, r != nil && r.Offline, s.Clusters[0].Phase)
		}
	}

	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "Synced"))
	bob := fleets["bob"]
	delete(fleets, "bob")
	for who, f := range fleets {
		waitRow(t, f, iam, who+"'s iam synced after the reinstall", func(r *model.AppView) bool {
			return r != nil && r.Git.State == model.GitSynced && !r.Offline
		})
	}
	if r := findRow(bob.Snapshot(), iam); !noKind(r) {
		t.Errorf("bob's git after the reinstall = %+v, want still unknown (%s) until a restart, as the notice says", r.Git, model.GitWhyNoKind)
	}
}
