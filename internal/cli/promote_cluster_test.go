package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
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
)

const gatewayCR = `# the public API edge
apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  role: service
  image:
    repository: ghcr.io/hanzoai/gateway
    tag: v1.8.2 # moved by pull request
`

// driftboard promote --merge --sync --wait on a real API server: the pull
// request changes one line, the merge is synced through the Application as
// CD's API asks, and the promotion is followed, as the commands print it,
// until every pod runs the release; --dry-run writes nothing.
func TestPromoteMergeSyncWait(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "gateway", "service", "ghcr.io/hanzoai/gateway", "v1.8.2", 1); err != nil {
		t.Fatal(err)
	}
	apps := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	_, err := apps.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
		"spec":     map[string]any{"source": map[string]any{"repoURL": "https://github.com/hanzoai/universe", "path": "crs", "targetRevision": "main"}},
		"status": map[string]any{"sync": map[string]any{"status": "Synced", "revision": "0000000000000000000000000000000000000000"},
			"resources": []any{map[string]any{"group": "hanzo.ai", "kind": "App", "namespace": "hanzo", "name": "gateway", "status": "Synced"}}},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", map[string]string{"crs/gateway-v1.yaml": gatewayCR})
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
	k := model.Key{Cluster: "test", Namespace: "hanzo", Name: "gateway"}
	var row *model.AppView
	for row == nil || row.Git.Application == "" || row.Workload.Rollout != model.RolloutComplete {
		select {
		case <-ctx.Done():
			t.Fatalf("gateway never managed and rolled out: %+v", row)
		case <-time.After(100 * time.Millisecond):
		}
		row = findRowByKey(fl.Snapshot().Rows(), k)
	}
	withRelease := func(v *model.AppView) *model.AppView {
		if v == nil {
			return nil
		}
		cp := *v
		cp.Release, cp.LatestTag = model.Release{State: model.ReleaseFound, LatestTag: "v1.9.0"}, "v1.9.0"
		return &cp
	}
	deps := promoteDeps{fleet: fl, row: withRelease(row), forge: g, repoOf: func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }, budgets: model.DefaultPromotionBudgets, poll: 100 * time.Millisecond,
		reread: func() *model.AppView { return withRelease(findRowByKey(fl.Snapshot().Rows(), k)) }, changed: fl.Changed}
	var stderr bytes.Buffer
	a := newApp(Streams{Err: &stderr})

	var out bytes.Buffer
	dry := promoteOptions{to: "latest", dryRun: true, output: "text", target: appTarget{name: "gateway", envNamed: true}}
	if err := dry.promote(ctx, a, deps, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hanzo/gateway on test (env main): v1.8.2 → v1.9.0", "-    tag: v1.8.2 # moved by pull request",
		"+    tag: v1.9.0 # moved by pull request", "branch         driftboard/main/gateway-v1.9.0", "GitHub user octo-engineer"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--dry-run lacks %q:\n%s", want, out.String())
		}
	}
	if g.Head(universe, "driftboard/main/gateway-v1.9.0") != "" {
		t.Fatal("--dry-run wrote a branch")
	}

	// CD and the operator, as the test plays them: a sync operation on
	// universe-crs applies its revision to the App CR and the Deployment.
	go playCD(ctx, t, c, g, universe)
	out.Reset()
	o := promoteOptions{to: "latest", yes: true, merge: true, sync: true, wait: true, output: "jsonl", target: appTarget{name: "gateway", envNamed: true}}
	if err := o.promote(ctx, a, deps, &out); err != nil {
		t.Fatalf("promote: %v\n%s", err, out.String())
	}
	var steps []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rep promoteReport
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			t.Fatalf("jsonl line %q: %v", line, err)
		}
		if rep.Promotion != nil {
			steps = append(steps, string(rep.Promotion.Step))
		}
	}
	t.Logf("states %q", steps)
	if len(steps) == 0 || steps[len(steps)-1] != "live" {
		t.Fatalf("states %q, want them to end live:\n%s", steps, out.String())
	}
	if main := string(g.File(universe, "main", "crs/gateway-v1.yaml")); main != strings.Replace(gatewayCR, "v1.8.2", "v1.9.0", 1) {
		t.Errorf("main after the merge:\n%s", main)
	}
}

// playCD waits for a sync operation on universe-crs, then does what Hanzo
// CD and the operator would: the App CR and the Deployment get the tag
// the revision declares, and the Application reports the revision synced.
func playCD(ctx context.Context, t *testing.T, c *testcluster.Cluster, g *demogithub.GitHub, repo promote.Repo) {
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
		tag := "v1.8.2"
		if strings.Contains(string(g.File(repo, rev, "crs/gateway-v1.yaml")), "tag: v1.9.0") {
			tag = "v1.9.0"
		}
		setDeclaredTag(t, c, "hanzo", "gateway", tag)
		_, err = c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, "gateway", types.StrategicMergePatchType,
			[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"gateway","image":"ghcr.io/hanzoai/gateway:`+tag+`"}]}}}}`), metav1.PatchOptions{})
		if err != nil {
			t.Errorf("roll the Deployment: %v", err)
			return
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
