package kube

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Objects created, changed and deleted on a real API server reach the rows.
func TestLiveChangesReachSnapshot(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-devnet")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 2)
	seed(t, c, "hanzo-devnet", "db", "sql", "v2.0.0", 1)
	seed(t, c, "hanzo", "edge", "ingress", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})

	iam := key("hanzo", "iam")
	row := waitRow(t, f, iam, "seeded", func(r *model.AppView) bool { return r != nil })
	if row.DeclaredTag != "v1.0.0" || row.RunningTag != "v1.0.0" || !row.Workload.Found || !row.Workload.OwnedByApp ||
		row.Workload.Kind != model.KindDeployment || row.Health != model.HealthRed || row.Offline {
		t.Errorf("seeded row: %+v", row)
	}
	db := waitRow(t, f, key("hanzo-devnet", "db"), "sts", func(r *model.AppView) bool { return r != nil })
	if db.Workload.Kind != model.KindStatefulSet || !db.Workload.Found || db.Env != "dev" {
		t.Errorf("statefulset row: %+v", db.Workload)
	}
	edge := waitRow(t, f, key("hanzo", "edge"), "ingress", func(r *model.AppView) bool { return r != nil })
	if edge.Workload.Found || len(edge.Problems) != 0 {
		t.Errorf("ingress row: workload %+v problems %q", edge.Workload, edge.Problems)
	}

	// Tag change on the App.
	patchApp(t, c, "hanzo", "iam", `{"spec":{"image":{"tag":"v1.1.0"}}}`)
	waitRow(t, f, iam, "tag change", func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v1.1.0" })

	// Status change through the status subresource.
	patchApp(t, c, "hanzo", "iam", `{"status":{"phase":"Running","readyReplicas":2}}`, "status")
	waitRow(t, f, iam, "status change", func(r *model.AppView) bool { return r != nil && r.Phase == "Running" })

	// The workload's status: ready → green.
	ctx := ctxT(t)
	d, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	_, err = c.AdminClient().AppsV1().Deployments("hanzo").UpdateStatus(ctx, d, metav1.UpdateOptions{})
	must(t, err)
	waitRow(t, f, iam, "workload ready", func(r *model.AppView) bool { return r != nil && r.Health == model.HealthGreen })

	// The workload's template moves to the new tag.
	_, err = c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, "iam", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"iam","image":"ghcr.io/hanzoai/iam:v1.1.0"}]}}}}`), metav1.PatchOptions{})
	must(t, err)
	waitRow(t, f, iam, "template tag", func(r *model.AppView) bool { return r != nil && r.Workload.SpecTag == "v1.1.0" })

	// Workload deleted: the row stays and says so.
	must(t, c.AdminClient().AppsV1().Deployments("hanzo").Delete(ctx, "iam", metav1.DeleteOptions{}))
	row = waitRow(t, f, iam, "workload deleted", func(r *model.AppView) bool { return r != nil && !r.Workload.Found })
	if !row.HasProblem(model.ProblemNoWorkload) {
		t.Errorf("problems %q do not say the workload is missing", row.Problems)
	}

	// App deleted: the row goes.
	must(t, c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Delete(ctx, "iam", metav1.DeleteOptions{}))
	waitRow(t, f, iam, "", func(r *model.AppView) bool { return r == nil })
}

// Malformed Apps (as the CRD's loose schema lets them be stored) become rows
// with problems; good ones next to them stay right.
func TestLiveMalformedAppsBecomeErrorRows(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "good", "", "v1.0.0", 1)
	bad := map[string]any{
		"image-string":  map[string]any{"image": "ghcr.io/hanzoai/x:v1"},
		"tag-number":    map[string]any{"image": map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": 7}},
		"replicas-word": map[string]any{"replicas": "three", "image": map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": "v1.0.0"}},
		"huge-replicas": map[string]any{"replicas": 1e30, "image": map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": "v1.0.0"}},
		"huge-tag":      map[string]any{"image": map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": strings.Repeat("9", 200000)}},
		"no-spec":       nil,
	}
	for name, spec := range bad {
		createRawApp(t, c, "hanzo", name, spec)
	}
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	snap := waitCluster(t, f, "all rows", func(_ model.ClusterState, s *store.Snapshot) bool { return s.Len() == len(bad)+1 })
	for name := range bad {
		r := findRow(snap, key("hanzo", name))
		if r == nil || !r.HasProblem(model.ProblemMalformed) {
			t.Errorf("%s: row %+v does not say it is malformed", name, r)
		}
	}
	good := findRow(snap, key("hanzo", "good"))
	if good == nil || good.DeclaredTag != "v1.0.0" || !good.Workload.Found || len(good.Problems) != 0 {
		t.Errorf("good row next to bad ones: %+v", good)
	}

	// Without the CRD the cluster fails closed and says why.
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	must(t, c.AdminDynamic().Resource(crds).Delete(ctxT(t), "apps.hanzo.ai", metav1.DeleteOptions{}))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := c.AdminDynamic().Resource(crds).Get(ctxT(t), "apps.hanzo.ai", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CRD still there after 30 s: %v", err)
		}
	}
	waitCluster(t, startFleetNoWait(t, c.AdminConfig()), "crd missing", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnFailed && strings.Contains(st.Reason, "App CRD not installed") && s.Len() == 0
	})
}

// The API server stopped and started mid-watch: rows go stale, come back
// live, and equal a fresh list (nothing lost, nothing duplicated).
func TestLiveAPIServerRestart(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-testnet")
	for _, n := range names("svc", 20) {
		seed(t, c, "hanzo", n, "", "v1.0.0", 1)
	}
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	waitCluster(t, f, "seeded", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnLive && s.Len() == 20
	})

	c.StopAPIServer()
	snap := waitCluster(t, f, "stale", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnReconnecting
	})
	for _, r := range snap.Rows() {
		if !r.Offline {
			t.Fatalf("row %s shown live while the cluster is %s", r.Key(), snap.Clusters[0].Phase)
		}
	}
	if snap.Clusters[0].Since.IsZero() || snap.Clusters[0].Reason == "" {
		t.Errorf("reconnecting state lacks since/why: %+v", snap.Clusters[0])
	}
	c.StartAPIServer()

	// Changes right after the restart: some land before the watch is back.
	ctx := ctxT(t)
	for _, n := range names("new", 5) {
		seed(t, c, "hanzo-testnet", n, "", "v3.0.0", 1)
	}
	must(t, c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Delete(ctx, "svc-000", metav1.DeleteOptions{}))
	patchApp(t, c, "hanzo", "svc-001", `{"spec":{"image":{"tag":"v1.0.1"}}}`)

	// What the outage hid, spelled out (not only "equals a fresh list",
	// which the wait below already requires): svc-000 gone, svc-001 on its
	// new tag, the five new Apps present, nothing else changed.
	want := map[model.Key]string{}
	for _, n := range names("svc", 20)[1:] {
		want[key("hanzo", n)] = "v1.0.0"
	}
	want[key("hanzo", "svc-001")] = "v1.0.1"
	for _, n := range names("new", 5) {
		want[key("hanzo-testnet", n)] = "v3.0.0"
	}
	if diff := cmp.Diff(want, listedApps(t, c)); diff != "" {
		t.Fatalf("the API server does not hold what the test changed (-want +listed):\n%s", diff)
	}
	snap = waitCluster(t, f, "live again with every change", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnLive && cmp.Equal(want, rowKeys(s))
	})
	for _, r := range snap.Rows() {
		if r.Offline {
			t.Errorf("row %s still stale while live", r.Key())
		}
	}
}
