package cli

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// countingCD counts the syncs asked of the fleet.
type countingCD struct {
	promoteFleet
	syncs atomic.Int32
}

func (c *countingCD) SyncApplication(ctx context.Context, k model.Key, r promote.SyncRequest) (promote.SyncResult, error) {
	c.syncs.Add(1)
	return c.promoteFleet.SyncApplication(ctx, k, r)
}

// promote -q --merge --sync --wait on a real API server: two Apps in two
// files of one Application, one pull request, the Application asked once
// for the merge commit, and both Apps followed until live.
func TestPromoteSetMergeSyncWait(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	names := []string{"gateway", "kms"}
	var resources []any
	files := map[string]string{}
	for _, n := range names {
		if err := c.SeedApp(ctx, "hanzo", n, "service", "ghcr.io/hanzoai/"+n, "v1.8.2", 1); err != nil {
			t.Fatal(err)
		}
		resources = append(resources, map[string]any{"group": "hanzo.ai", "kind": "App", "namespace": "hanzo", "name": n, "status": "Synced"})
		files["crs/"+n+"-v1.yaml"] = strings.ReplaceAll(gatewayCR, "gateway", n)
	}
	apps := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	if _, err := apps.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application", "metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
		"spec":   map[string]any{"source": map[string]any{"repoURL": "https://github.com/hanzoai/universe", "path": "crs", "targetRevision": "main"}},
		"status": map[string]any{"sync": map[string]any{"status": "Synced", "revision": strings.Repeat("0", 40)}, "resources": resources},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", files)
	g.SetChecks(universe, 0, promote.ChecksPassed)
	cc, err := kube.NewClusterClients("test", c.AdminConfig(), kube.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fl := kube.NewFleet(kube.FleetOptions{}, cc)
	fl.Start(ctx)
	if err := fl.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	withRelease := func(v *model.AppView) *model.AppView {
		if v == nil {
			return nil
		}
		cp := *v
		cp.Release, cp.LatestTag = model.Release{State: model.ReleaseFound, LatestTag: "v1.9.0"}, "v1.9.0"
		return &cp
	}
	var reqs []promote.Request
	for _, n := range names {
		k := model.Key{Cluster: "test", Namespace: "hanzo", Name: n}
		var row *model.AppView
		for row == nil || row.Git.Application == "" || row.Workload.Rollout != model.RolloutComplete {
			select {
			case <-ctx.Done():
				t.Fatalf("%s never managed and rolled out: %+v", n, row)
			case <-time.After(100 * time.Millisecond):
			}
			row = findRowByKey(fl.Snapshot().Rows(), k)
		}
		cdApps, tracking := fl.PromotionLookup(k)
		reqs = append(reqs, promote.Request{Row: withRelease(row), To: "latest", Lookup: promote.Lookup{Applications: cdApps, TrackingID: tracking}})
	}
	cd := &countingCD{promoteFleet: fl}
	follow := setFollow{fleet: cd, budgets: model.DefaultPromotionBudgets, changed: fl.Changed, poll: 100 * time.Millisecond,
		reread: func(k model.Key) *model.AppView { return withRelease(findRowByKey(fl.Snapshot().Rows(), k)) }}
	go playCDSet(ctx, t, c, g, universe, names)
	var out bytes.Buffer
	o := promoteOptions{to: "latest", yes: true, merge: true, sync: true, wait: true, output: "text"}
	q, _ := query.Parse("env:main")
	if err := o.proposeSet(ctx, newApp(Streams{}), q, reqs, g, func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }, follow, &out); err != nil {
		t.Fatalf("promote -q: %v\n%s", err, out.String())
	}
	t.Logf("out:\n%s", out.String())
	if n := cd.syncs.Load(); n != 1 {
		t.Errorf("the Application was asked %d times, want once", n)
	}
	for _, want := range []string{"CD asked to sync apps.hanzo.ai/hanzo-cd/universe-crs on test to ", "gateway: live (lead time", "kms: live (lead time"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("out lacks %q", want)
		}
	}
}

// playCDSet is playCD for several Apps of one Application: one sync
// operation applies each App's tag from its file at the revision.
func playCDSet(ctx context.Context, t *testing.T, c *testcluster.Cluster, g *demogithub.GitHub, repo promote.Repo, names []string) {
	apps := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	for ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
		a, err := apps.Get(ctx, "universe-crs", metav1.GetOptions{})
		if err != nil {
			continue
		}
		rev, _, _ := unstructured.NestedString(a.Object, "operation", "sync", "revision")
		if rev == "" {
			continue
		}
		for _, n := range names {
			tag := "v1.8.2"
			if strings.Contains(string(g.File(repo, rev, "crs/"+n+"-v1.yaml")), "tag: v1.9.0") {
				tag = "v1.9.0"
			}
			setDeclaredTag(t, c, "hanzo", n, tag)
			if _, err := c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, n, types.StrategicMergePatchType,
				[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"`+n+`","image":"ghcr.io/hanzoai/`+n+`:`+tag+`"}]}}}}`), metav1.PatchOptions{}); err != nil {
				t.Errorf("roll %s: %v", n, err)
				return
			}
		}
		delete(a.Object, "operation")
		_ = unstructured.SetNestedField(a.Object, rev, "status", "sync", "revision")
		_ = unstructured.SetNestedField(a.Object, map[string]any{"phase": "Succeeded", "message": "synced",
			"finishedAt": time.Now().UTC().Format(time.RFC3339)}, "status", "operationState")
		if _, err := apps.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
			t.Errorf("CD's status: %v", err)
		}
		return
	}
}
