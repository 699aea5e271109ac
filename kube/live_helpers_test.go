package kube

import (
	"context"
	"fmt"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

const testClusterName = "test"

var (
	superAdmin = &model.Principal{User: "alice", HomeOrg: "admin", Orgs: []model.OrgRole{{Org: "admin", Role: "member"}}, SuperAdmin: true}
	acmeAdmin  = &model.Principal{User: "carol", HomeOrg: "acme", Orgs: []model.OrgRole{{Org: "acme", Role: "admin"}}, OrgAdmin: true}
)

func principal(p *model.Principal) func() *model.Principal {
	return func() *model.Principal { return p }
}

// startFleet runs a Fleet against cfg until the test ends and waits for sync.
func startFleet(t *testing.T, cfg *rest.Config, opts FleetOptions) *Fleet {
	t.Helper()
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// These clients stand for ones carrying the IAM identity (which
	// ConnectWithIdentity labels so); the IAM scope rules are what is tested.
	cc.Identity = model.ClusterIdentity{IAM: true}
	f := NewFleet(opts, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	if err := f.WaitSynced(wctx); err != nil {
		t.Fatalf("WaitSynced: %v", err)
	}
	return f
}

// startFleetNoWait runs a Fleet without waiting for it to sync.
func startFleetNoWait(t *testing.T, cfg *rest.Config) *Fleet {
	t.Helper()
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFleet(FleetOptions{}, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	return f
}

func key(ns, name string) model.Key {
	return model.Key{Cluster: testClusterName, Namespace: ns, Name: name}
}

func findRow(s *store.Snapshot, k model.Key) *model.AppView {
	for _, r := range s.Rows() {
		if r.Key() == k {
			return r
		}
	}
	return nil
}

// waitRow waits (on change signals, never sleeping) until the row matches.
func waitRow(t *testing.T, f *Fleet, k model.Key, what string, ok func(*model.AppView) bool) *model.AppView {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		row := findRow(f.Snapshot(), k)
		if ok(row) {
			return row
		}
		select {
		case <-f.Changed():
		case <-ctx.Done():
			if row == nil {
				t.Fatalf("%s: row %s never matched; it is absent", what, k)
			}
			t.Fatalf("%s: row %s never matched; last: tags declared %q running %q, health %q, workload %+v, problems %q",
				what, k, row.DeclaredTag, row.RunningTag, row.Health, row.Workload, row.Problems)
		}
	}
}

func waitCluster(t *testing.T, f *Fleet, what string, ok func(model.ClusterState, *store.Snapshot) bool) *store.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return waitSnapshot(ctx, t, f, func(s *store.Snapshot) bool {
		for _, c := range s.Clusters {
			if c.Name == testClusterName && ok(c, s) {
				return true
			}
		}
		return false
	})
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// patchApp merge-patches an App as the admin.
func patchApp(t *testing.T, c *testcluster.Cluster, ns, name, patch string, sub ...string) {
	t.Helper()
	_, err := c.AdminDynamic().Resource(appsGVR).Namespace(ns).Patch(ctxT(t), name, "application/merge-patch+json", []byte(patch), metav1.PatchOptions{}, sub...)
	must(t, err)
}

// createRawApp stores an App object exactly as given (malformed ones too).
func createRawApp(t *testing.T, c *testcluster.Cluster, ns, name string, spec any) {
	t.Helper()
	obj := map[string]any{"apiVersion": "hanzo.ai/v1", "kind": "App", "metadata": map[string]any{"name": name, "namespace": ns}}
	if spec != nil {
		obj["spec"] = spec
	}
	_, err := c.AdminDynamic().Resource(appsGVR).Namespace(ns).Create(ctxT(t), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create raw app %s/%s: %v", ns, name, err)
	}
}

func rowKeys(s *store.Snapshot) map[model.Key]string {
	out := map[model.Key]string{}
	for _, r := range s.Rows() {
		out[r.Key()] = r.DeclaredTag
	}
	return out
}

// listedApps is a fresh LIST of Apps (key → declared tag): the truth.
func listedApps(t *testing.T, c *testcluster.Cluster) map[model.Key]string {
	t.Helper()
	list, err := c.AdminDynamic().Resource(appsGVR).List(ctxT(t), metav1.ListOptions{})
	must(t, err)
	out := map[model.Key]string{}
	for _, it := range list.Items {
		tag, _, _ := unstructured.NestedString(it.Object, "spec", "image", "tag")
		k := key(it.GetNamespace(), it.GetName())
		if _, dup := out[k]; dup {
			t.Fatalf("duplicate %s in list", k)
		}
		out[k] = tag
	}
	return out
}

func seed(t *testing.T, c *testcluster.Cluster, ns, name, role, tag string, replicas int32) {
	t.Helper()
	if err := c.SeedApp(ctxT(t), ns, name, role, "ghcr.io/hanzoai/"+name, tag, replicas); err != nil {
		t.Fatal(err)
	}
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", prefix, i)
	}
	return out
}

func rbacRole(ns string) *rbacv1.Role {
	return &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "board", Namespace: ns},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"hanzo.ai"}, Resources: []string{"apps", "services"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets", "replicasets"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets"}, Verbs: []string{"patch"}},
			{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create"}},
		},
	}
}

func rbacBinding(ns, user string) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "board-" + user, Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "board"},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}},
	}
}

// labelOrg sets namespace ns's hanzo.ai/org label, which a row's org is
// taken from.
func labelOrg(t *testing.T, c *testcluster.Cluster, ns, org string) {
	t.Helper()
	_, err := c.AdminClient().CoreV1().Namespaces().Patch(ctxT(t), ns, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"hanzo.ai/org":"`+org+`"}}}`), metav1.PatchOptions{})
	must(t, err)
}

// seedTenant makes namespace ns, labelled with org, holding n services
// svc-… at v1.0.0 with one ready replica each; it returns their names.
func seedTenant(t *testing.T, c *testcluster.Cluster, ns, org string, n int) []string {
	t.Helper()
	c.CreateNamespaces(ns)
	labelOrg(t, c, ns, org)
	all := names("svc", n)
	for _, name := range all {
		seed(t, c, ns, name, "service", "v1.0.0", 1)
	}
	return all
}
