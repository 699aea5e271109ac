package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// A marked set promoted from the board, the built binary in a terminal: *
// marks the rows shown, p plans one pull request for both Apps, y opens it,
// and its diff is each file's tag line, nothing else; both rows say PR open.
func TestPromoteMarkedSetOnTheBoard(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ledgerCR := strings.NewReplacer("gateway", "ledger", "v1.8.2", "v2.0.0", "the public API edge", "the books").Replace(gatewayCR)
	c, gh := universeFleet(ctx, t, testcluster.Options{}, []seededApp{{"gateway", "v1.8.2"}, {"ledger", "v2.0.0"}},
		map[string]string{"crs/gateway-v1.yaml": gatewayCR, "crs/ledger-v1.yaml": ledgerCR})
	gh.AddToken("engineer-token", "octo-engineer", githubtest.Write)
	gh.SetReleases("hanzoai", "gateway", "v1.9.0", "v1.8.2")
	gh.SetReleases("hanzoai", "ledger", "v2.1.0", "v2.0.0")
	env := append(githubUserEnv(t, gh, "releases:\n  githubURL: "+gh.APIURL()+"\n"), "GH_ENTERPRISE_TOKEN=engineer-token")
	term := startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath()}, env)
	term.await("the rows and their releases", 90*time.Second, "gateway", "ledger", "v1.9.0", "v2.1.0")
	term.keys("*")
	term.keys("p")
	term.await("the set's plan", 30*time.Second, "Promote 2 marked apps?", "crs/gateway-v1.yaml", "crs/ledger-v1.yaml", "Open this pull request?")
	if w := gh.Writes(); len(w) != 0 {
		t.Fatalf("the plan wrote before the confirmation: %+v", w)
	}
	term.keys("y")
	term.await("the pull request", 30*time.Second, "pull request #1 opened")
	term.awaitScreen("both rows: PR open", func(s string) bool { return rowSays("gateway", "PR open")(s) && rowSays("ledger", "PR open")(s) })

	f, err := githubforge.New(githubforge.Config{APIURL: gh.APIURL(), Token: "engineer-token", HTTPClient: gh.Client()})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := f.PullRequest(ctx, promote.Repo{Owner: "hanzoai", Name: "universe"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, l := range strings.Split(gh.Git("diff", "main", pr.Branch), "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, l)
		}
	}
	want := []string{"-    tag: v1.8.2 # moved by pull request", "+    tag: v1.9.0 # moved by pull request",
		"-    tag: v2.0.0 # moved by pull request", "+    tag: v2.1.0 # moved by pull request"}
	if strings.Join(changed, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the set's pull request (%s) changes:\n%s\nwant each file's tag line:\n%s", pr.Branch, strings.Join(changed, "\n"), strings.Join(want, "\n"))
	}
}
