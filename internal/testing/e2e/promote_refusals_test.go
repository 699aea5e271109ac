package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/githubtest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// appCR is an App document of hanzo-testnet declaring tag (raw YAML).
func appCR(name, tag string) string {
	return fmt.Sprintf("apiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n  name: %s\n  namespace: hanzo-testnet\nspec:\n  role: service\n  image:\n    repository: ghcr.io/hanzoai/%s\n    tag: %s\n", name, name, tag)
}

// The promotion's refusals on the board, the built binary in a terminal:
// an App declared in two files, one whose tag is templated, one no file
// declares, and a token that may not push each say why, and nothing is
// written; a pull request closed unmerged ends the row's promotion as such.
func TestPromoteRefusalsOnTheBoard(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	names := []string{"twice", "templ", "nofile", "gateway"}
	var apps []seededApp
	for _, n := range names {
		apps = append(apps, seededApp{n, "v1.8.2"})
	}
	c, gh := universeFleet(ctx, t, testcluster.Options{}, apps, map[string]string{
		"crs/twice-v1.yaml":   appCR("twice", "v1.8.2"),
		"crs/twice-copy.yaml": appCR("twice", "v1.8.2"),
		"crs/templ-v1.yaml":   appCR("templ", `"{{ .Values.tag }}"`),
		"crs/gateway-v1.yaml": gatewayCR,
	})
	gh.AddToken("reader-token", "octo-reader", githubtest.Read)
	gh.AddToken("engineer-token", "octo-engineer", githubtest.Write)
	for _, n := range names {
		gh.SetReleases("hanzoai", n, "v1.9.0", "v1.8.2")
	}
	env := githubUserEnv(t, gh, "releases:\n  githubURL: "+gh.APIURL()+"\n")
	// filterTo shows app's row alone: / keeps the query, esc clears it.
	filterTo := func(term *terminal, app string) {
		for _, k := range []string{"/", "\x1b", "/" + app + "\r"} {
			term.keys(k)
			time.Sleep(300 * time.Millisecond) // a lone esc, not alt+/
		}
	}
	refusedWith := func(term *terminal, app string, want ...string) {
		t.Helper()
		filterTo(term, app)
		term.keys("p")
		term.await(app+" refused", 30*time.Second, append(want, "nothing was written")...)
		term.keys("\x1b")
		time.Sleep(300 * time.Millisecond)
		if w := gh.Writes(); len(w) != 0 {
			t.Fatalf("a refused promotion of %s wrote %+v", app, w)
		}
	}

	term := startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, append(env, "GH_ENTERPRISE_TOKEN=reader-token"))
	term.await("the rows and their release", 90*time.Second, "gateway", "nofile", "v1.9.0")
	refusedWith(term, "twice", "declared in 2 files", "crs/twice-copy.yaml", "crs/twice-v1.yaml")
	refusedWith(term, "templ", "templated")
	refusedWith(term, "nofile", "no file under crs")
	filterTo(term, "gateway")
	term.keys("p")
	term.await("the plan as the reader", 30*time.Second, "Promote hanzo-testnet/gateway?", "GitHub user octo-reader")
	term.keys("y")
	term.await("no permission", 30*time.Second, "not opened: this token cannot push to hanzoai/universe")
	if w := gh.Writes(); len(w) != 0 {
		t.Fatalf("a promotion without push access wrote %+v", w)
	}
	term.keys("\x03")
	<-term.Done()

	term = startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, append(env, "GH_ENTERPRISE_TOKEN=engineer-token"))
	term.await("the rows and their release", 90*time.Second, "gateway", "v1.9.0")
	term.keys("/gateway\r")
	term.keys("p")
	term.await("the plan", 30*time.Second, "Open this pull request?")
	term.keys("y")
	term.await("the pull request", 30*time.Second, "pull request #1 opened")
	gh.ClosePull(1)
	term.awaitScreen("the row: PR closed", rowSays("gateway", "! PR closed"))
}
