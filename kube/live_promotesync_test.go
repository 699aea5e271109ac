package kube

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

const mergeSHA = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"

// A merged promotion is applied as CD's own API asks: an operation with the
// revision and who asked on an Application that syncs by hand, a refresh
// on one that syncs by itself; with a restart's checks, the IAM scope and
// RBAC on the Application first.
func TestLivePromotionSync(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	seed(t, c, "hanzo", "gateway", "", "v1.8.2", 1)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "gateway", "Synced"))
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "auto-crs")
	ri := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	auto, err := ri.Get(ctxT(t), "auto-crs", metav1.GetOptions{})
	must(t, err)
	must(t, unstructured.SetNestedMap(auto.Object, map[string]any{"automated": map[string]any{"selfHeal": true}}, "spec", "syncPolicy"))
	_, err = ri.Update(ctxT(t), auto, metav1.UpdateOptions{})
	must(t, err)

	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	gw := key("hanzo", "gateway")
	waitRow(t, f, gw, "gateway managed by universe-crs", func(r *model.AppView) bool {
		return r != nil && r.Git.Application == "apps.hanzo.ai/hanzo-cd/universe-crs"
	})
	ctx := ctxT(t)
	patchApp(t, c, "hanzo", "gateway", `{"metadata":{"annotations":{"apps.hanzo.ai/tracking-id":"universe-crs:hanzo.ai/App:hanzo/gateway"}}}`)
	waitRow(t, f, gw, "the tracking-id cached", func(*model.AppView) bool {
		_, id := f.PromotionLookup(gw)
		return id == "universe-crs:hanzo.ai/App:hanzo/gateway"
	})
	if apps, _ := f.PromotionLookup(gw); len(apps) != 2 {
		t.Errorf("lookup: %d Applications, want universe-crs and auto-crs", len(apps))
	}
	res, err := f.SyncApplication(ctx, gw, promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Revision: mergeSHA})
	if err != nil || res.Refresh || res.By == "" {
		t.Fatalf("sync: %+v, %v", res, err)
	}
	got, err := ri.Get(ctx, "universe-crs", metav1.GetOptions{})
	must(t, err)
	rev, _, _ := unstructured.NestedString(got.Object, "operation", "sync", "revision")
	by, _, _ := unstructured.NestedString(got.Object, "operation", "initiatedBy", "username")
	if rev != mergeSHA || by != res.By {
		t.Errorf("operation: revision %q by %q, want %s by %s", rev, by, mergeSHA, res.By)
	}
	_, err = f.SyncApplication(ctx, gw, promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Revision: mergeSHA})
	if !isSyncRefused(err, "already has an operation running") {
		t.Errorf("a second sync while one runs: %v", err)
	}

	waitAutomated(t, f)
	res, err = f.SyncApplication(ctx, gw, promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/auto-crs", Revision: mergeSHA, DryRun: true})
	if err != nil || !res.Refresh || !res.DryRun {
		t.Fatalf("dry-run refresh: %+v, %v", res, err)
	}
	if got, _ := ri.Get(ctx, "auto-crs", metav1.GetOptions{}); got.GetAnnotations()["apps.hanzo.ai/refresh"] != "" {
		t.Fatal("a dry run wrote the refresh annotation")
	}
	if _, err := f.SyncApplication(ctx, gw, promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/auto-crs", Revision: mergeSHA}); err != nil {
		t.Fatal(err)
	}
	got, _ = ri.Get(ctx, "auto-crs", metav1.GetOptions{})
	if got.GetAnnotations()["apps.hanzo.ai/refresh"] != "normal" || got.Object["operation"] != nil {
		t.Errorf("automated Application: annotations %v, operation %v; want a refresh and no operation", got.GetAnnotations(), got.Object["operation"])
	}

	// Dave may read Applications but not patch them: Kubernetes' answer,
	// asked before anything is sent.
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "cd-read", Namespace: "hanzo-cd"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"apps.hanzo.ai"}, Resources: []string{"applications"}, Verbs: []string{"get", "list", "watch"}}}}
	_, err = c.AdminClient().RbacV1().Roles("hanzo-cd").Create(ctx, role, metav1.CreateOptions{})
	must(t, err)
	b := rbacBinding("hanzo-cd", "dave")
	b.RoleRef.Name = "cd-read"
	_, err = c.AdminClient().RbacV1().RoleBindings("hanzo-cd").Create(ctx, b, metav1.CreateOptions{})
	must(t, err)
	bindTenant(t, c, "hanzo", "dave")
	dave := startFleet(t, c.UserConfig("dave"), FleetOptions{Principal: principal(superAdmin)})
	waitAutomated(t, dave)
	_, err = dave.SyncApplication(ctx, gw, promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/auto-crs", Revision: mergeSHA})
	if !isSyncRefused(err, "does not allow dave (alice) to patch applications.apps.hanzo.ai in namespace hanzo-cd") {
		t.Errorf("dave: %v", err)
	}
}

// Only declared trusted clusters: a cluster read with the kubeconfig's
// identity, an org admin outside the namespace, read-only mode: refused,
// nothing sent.
func TestLivePromotionSyncRefusals(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	req := promote.SyncRequest{Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Revision: mergeSHA}
	cc, err := NewClusterClients(testClusterName, c.AdminConfig(), ConnectOptions{})
	must(t, err)
	untrusted := NewFleet(FleetOptions{Principal: principal(superAdmin)}, cc)
	if _, err := untrusted.SyncApplication(context.Background(), key("hanzo", "gateway"), req); !isSyncRefused(err, "CD syncs are asked as your IAM identity or not at all, and cluster test does not get it") {
		t.Errorf("a cluster not trusting the issuer: %v", err)
	}
	readOnly := NewFleet(FleetOptions{ReadOnly: true}, cc)
	if _, err := readOnly.SyncApplication(context.Background(), key("hanzo", "gateway"), req); !isSyncRefused(err, "read-only") {
		t.Errorf("read-only: %v", err)
	}
	cc.Identity = model.ClusterIdentity{IAM: true}
	// A context the config makes read-only refuses its syncs, as its
	// restarts, even to the super admin on a trusted cluster; another
	// context's read-only does not reach it.
	contextReadOnly := NewFleet(FleetOptions{Principal: principal(superAdmin), ReadOnlyContexts: map[string]bool{testClusterName: true}}, cc)
	if _, err := contextReadOnly.SyncApplication(context.Background(), key("hanzo", "gateway"), req); !isSyncRefused(err, "context "+testClusterName+" is read-only") {
		t.Errorf("the context read-only: %v", err)
	}
	otherReadOnly := NewFleet(FleetOptions{Principal: principal(superAdmin), ReadOnlyContexts: map[string]bool{"prod-eu": true}}, cc)
	if _, err := otherReadOnly.SyncApplication(context.Background(), key("hanzo", "gateway"), req); isSyncRefused(err, "read-only") {
		t.Errorf("another context read-only refused this one: %v", err)
	}
	scoped := NewFleet(FleetOptions{Principal: principal(acmeAdmin)}, cc)
	if _, err := scoped.SyncApplication(context.Background(), key("hanzo", "gateway"), req); !isSyncRefused(err, "belongs to hanzo") {
		t.Errorf("an org admin outside its org: %v", err)
	}
}

func waitAutomated(t *testing.T, f *Fleet) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		f.Snapshot() // refreshes the CD view
		for _, a := range f.byName[testClusterName].cd.View().Apps {
			if a.Name == "auto-crs" && a.Automated {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("auto-crs never read as syncing by itself")
}

func isSyncRefused(err error, says string) bool {
	var r *promote.SyncRefused
	return errors.As(err, &r) && strings.Contains(r.Reason, says)
}
