package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

const gatewayCR = `# the public API edge
apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo-testnet
spec:
  role: service
  image:
    repository: ghcr.io/hanzoai/gateway
    tag: v1.8.2 # moved by pull request
`

// A promotion from the board, the built binary in a terminal against a real
// API server and a GitHub whose git is real: without a token p is refused
// and nothing is written; with one, p and y open a pull request whose diff
// is the tag's one line, the row says PR open; the test merges it, a board
// started again finds it merged, and the test plays CD (the Application's
// sync revision, the App CR's tag, the Deployment; kwok rolls the pods) and
// the row reaches live.
func TestPromoteOnTheBoard(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, gh := universeFleet(ctx, t, testcluster.Options{Controllers: true}, []seededApp{{"gateway", "v1.8.2"}},
		map[string]string{"crs/gateway-v1.yaml": gatewayCR})
	gh.AddToken("engineer-token", "octo-engineer", githubtest.Write)
	gh.SetReleases("hanzoai", "gateway", "v1.9.0", "v1.8.2")
	env := githubUserEnv(t, gh, "releases:\n  githubURL: "+gh.APIURL()+"\n")

	// No token: refused with the reason, nothing written.
	term := startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, env)
	term.await("the row and its release", 90*time.Second, "gateway", "v1.9.0")
	term.keys("/gateway\r")
	term.keys("p")
	term.await("p without a token", 30*time.Second, "refused: no GitHub token for", "nothing was written")
	if w := gh.Writes(); len(w) != 0 {
		t.Fatalf("a refused promotion wrote %+v", w)
	}
	term.keys("\x03") // ctrl+c
	<-term.Done()

	term = startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, append(env, "GH_ENTERPRISE_TOKEN=engineer-token"))
	term.await("the row and its release", 90*time.Second, "gateway", "v1.9.0")
	term.keys("/gateway\r")
	term.keys("p")
	term.await("the plan", 30*time.Second, "Promote hanzo-testnet/gateway?", "v1.8.2 → v1.9.0", "crs/gateway-v1.yaml",
		"driftboard/test/gateway-v1.9.0", "GitHub user octo-engineer", "Open this pull request?")
	if w := gh.Writes(); len(w) != 0 {
		t.Fatalf("the plan wrote before the confirmation: %+v", w)
	}
	term.keys("y")
	term.await("the pull request", 30*time.Second, "pull request #1 opened")
	term.awaitScreen("the row: PR open", rowSays("gateway", "PR open"))
	diff := gh.Git("diff", "main", "driftboard/test/gateway-v1.9.0")
	var changed []string
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, l)
		}
	}
	if len(changed) != 2 || changed[0] != "-    tag: v1.8.2 # moved by pull request" || changed[1] != "+    tag: v1.9.0 # moved by pull request" {
		t.Fatalf("the pull request's diff is not the tag's one line:\n%s", diff)
	}

	// The test merges, then plays CD and the operator.
	f, err := githubforge.New(githubforge.Config{APIURL: gh.APIURL(), Token: "engineer-token", HTTPClient: gh.Client()})
	if err != nil {
		t.Fatal(err)
	}
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	pr, err := f.PullRequest(ctx, universe, 1)
	if err != nil {
		t.Fatal(err)
	}
	if pr, err = f.Merge(ctx, universe, 1, pr.HeadSHA); err != nil {
		t.Fatal(err)
	}
	term.awaitScreen("the row: merged", rowSays("gateway", "merged"))

	// A board started after the merge, before live, finds it again.
	term.keys("\x03")
	<-term.Done()
	term = startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, append(env, "GH_ENTERPRISE_TOKEN=engineer-token"))
	term.awaitScreen("the row, the board started again: merged", rowSays("gateway", "merged"))
	applyAsCD(ctx, t, c, pr.MergeSHA, "v1.9.0")
	term.awaitScreen("the row: live", rowSays("gateway", "v1.9.0", "live"))
}

// rowSays is whether a line of the screen holds app and every one of want.
func rowSays(app string, want ...string) func(string) bool {
	return func(screen string) bool {
		for _, l := range strings.Split(screen, "\n") {
			if !strings.Contains(l, " "+app+" ") {
				continue
			}
			all := true
			for _, w := range want {
				all = all && strings.Contains(l, w)
			}
			if all {
				return true
			}
		}
		return false
	}
}

// applyAsCD does what Hanzo CD and the operator would with revision: the
// App CR and the Deployment get tag, the Application reports it synced.
func applyAsCD(ctx context.Context, t *testing.T, c *testcluster.Cluster, revision, tag string) {
	t.Helper()
	if _, err := c.AdminDynamic().Resource(testcluster.AppsGVR).Namespace("hanzo-testnet").Patch(ctx, "gateway", types.MergePatchType,
		[]byte(`{"spec":{"image":{"tag":"`+tag+`"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Patch(ctx, "gateway", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"gateway","image":"ghcr.io/hanzoai/gateway:`+tag+`"}]}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	apps := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	a, err := apps.Get(ctx, "universe-crs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedField(a.Object, revision, "status", "sync", "revision")
	_ = unstructured.SetNestedField(a.Object, map[string]any{"phase": "Succeeded", "message": "synced",
		"finishedAt": time.Now().UTC().Format(time.RFC3339)}, "status", "operationState")
	if _, err := apps.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// githubUserEnv is a user's environment with config cfg, trusting the
// GitHub test server's certificate.
func githubUserEnv(t *testing.T, gh *githubtest.Server, cfg string) []string {
	t.Helper()
	home := t.TempDir()
	conf := filepath.Join(home, ".config")
	if err := os.MkdirAll(filepath.Join(conf, "driftboard"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "driftboard", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + conf, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"HANZO_HOME=" + filepath.Join(home, ".hanzo"), "SSL_CERT_FILE=" + gh.CertFile()}
}
