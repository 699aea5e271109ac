package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// runWithForge is Run with the demo's GitHub in place of GitHub's.
func (e *cliEnv) runWithForge(t *testing.T, g *demogithub.GitHub, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	s := Streams{In: strings.NewReader(e.stdin), Out: &out, Err: termtext.NewWriter(&errb), Getenv: func(k string) string { return e.vars[k] }}
	a := newApp(s)
	a.forgeFor = func(config.Effective) (promote.Forge, promote.RepoParser, error) {
		return g, func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }, nil
	}
	defer a.close()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	cmd, err := root.ExecuteContextC(ctx)
	code := exitCode(cmd, err, false, func(format string, args ...any) { fmt.Fprintf(&errb, format, args...) })
	return result{code: code, out: out.String(), err: errb.String()}
}

// The command's refusals on a real API server, each exit 2 with nothing
// written: a release the board has not read, a missing --to, --dry-run
// with --merge, a query and an App at once, no confirmation off a terminal.
func TestPromoteCommandRefusals(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "gateway", "service", "ghcr.io/hanzoai/gateway", "v1.8.2", 1); err != nil {
		t.Fatal(err)
	}
	_, err := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd").Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application", "metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
		"spec": map[string]any{"source": map[string]any{"repoURL": "https://github.com/hanzoai/universe", "path": "crs", "targetRevision": "main"}},
		"status": map[string]any{"sync": map[string]any{"status": "Synced"},
			"resources": []any{map[string]any{"group": "hanzo.ai", "kind": "App", "namespace": "hanzo", "name": "gateway", "status": "Synced"}}},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", map[string]string{"crs/gateway-v1.yaml": gatewayCR})
	e := newEnv(t)
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off"}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"promote", "gateway", "--to", "latest", "--yes", "--env", "main"}, "refused: the releases of hanzoai/gateway have not been read"},
		{[]string{"promote", "gateway"}, "promote needs --to TAG or --to latest"},
		{[]string{"promote", "gateway", "--to", "v1.9.0", "--dry-run", "--merge"}, "does not combine with --merge"},
		{[]string{"promote", "gateway", "-q", "env:main", "--to", "latest"}, "do not also name one"},
		{[]string{"promote", "gateway", "--to", "latest", "-o", "yaml"}, "-o must be text, json or jsonl"},
	} {
		e.runWithForge(t, g, append(tc.args, base...)...).expect(t, ExitError, tc.says)
	}
	// A context the config makes read-only: --sync is refused before
	// anything is written, as a restart there is.
	ro := newEnv(t)
	iss := startIssuer(t)
	ro.loginAs(iss, iss.token(t, "u-ada", "ada@hanzo.ai", orgRole{Org: "admin", Role: "owner"}))
	writeFile(t, filepath.Join(ro.vars["XDG_CONFIG_HOME"], "driftboard"), "config.yaml", "perContext:\n  test:\n    readOnly: true\n")
	ro.runWithForge(t, g, append([]string{"promote", "gateway", "--to", "latest", "--yes", "--env", "main", "--merge", "--sync"}, base...)...).
		expect(t, ExitError, "refused: --sync: read-only mode: context test is read-only")
	if g.Head(universe, "driftboard/main/gateway-v1.9.0") != "" {
		t.Error("a refused promotion wrote a branch")
	}

	// A pull request on the App's promotion branch: list and get carry the
	// promotion in flight, found from it alone.
	edited := strings.Replace(gatewayCR, "v1.8.2", "v1.9.0", 1)
	_, err = g.Propose(ctx, promote.Change{Repo: universe, Base: "main", Branch: "driftboard/main/gateway-v1.9.0", Title: "gateway: v1.8.2 → v1.9.0 (main, kind)",
		Files: []promote.FileEdit{{Path: "crs/gateway-v1.yaml", OldSHA: demogithub.BlobSHA([]byte(gatewayCR)), Content: []byte(edited)}}})
	if err != nil {
		t.Fatal(err)
	}
	r := e.runWithForge(t, g, append([]string{"list", "-o", "json", "--fail-on", "none"}, base...)...)
	r.expect(t, ExitOK)
	var doc struct {
		Apps []model.AppView `json:"apps"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Apps) != 1 {
		t.Fatalf("list -o json: %v\n%s", err, r.out)
	}
	if p := doc.Apps[0].Promotion; p == nil || p.Step != model.PromotionOpen || p.To != "v1.9.0" || p.PR != 1 {
		t.Errorf("list: gateway's promotion %+v", p)
	}
	r = e.runWithForge(t, g, append([]string{"get", "gateway", "--env", "main"}, base...)...)
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "pr-open to v1.9.0, pull request #1") {
		t.Errorf("get lacks the promotion:\n%s", r.out)
	}
}
