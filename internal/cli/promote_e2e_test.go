package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// driftboard promote through the whole command: the release read from a
// GitHub releases answer, the App found on a real API server, the plan
// printed, the pull request opened (once) with the one-line change.
func TestPromoteCommandOpensThePullRequest(t *testing.T) {
	var releases *httptest.Server
	releases = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.TrimPrefix(r.URL.Path, "/api/v3") != "/repos/hanzoai/gateway/releases" { // an Enterprise URL's API path
			http.NotFound(w, r)
			return
		}
		notes := releases.URL + "/hanzoai/gateway/releases/tag/"
		fmt.Fprint(w, `[{"id":3,"tag_name":"v1.10.0-rc.1","prerelease":true,"html_url":"`+notes+`v1.10.0-rc.1","created_at":"2026-12-02T00:00:00Z","published_at":"2026-12-02T00:00:00Z","assets":[]},`+
			`{"id":2,"tag_name":"v1.9.0","html_url":"`+notes+`v1.9.0","created_at":"2026-12-01T00:00:00Z","published_at":"2026-12-01T00:00:00Z","assets":[{"id":1,"name":"a"}]},`+
			`{"id":1,"tag_name":"v1.8.2","html_url":"https://evil.example/v1.8.2","created_at":"2026-11-01T00:00:00Z","published_at":"2026-11-01T00:00:00Z","assets":[{"id":2,"name":"a"}]}]`)
	}))
	defer releases.Close()
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
	dir := filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("releases:\n  githubURL: "+releases.URL+"/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--timeout", "60s"}

	r := e.runWithForge(t, g, append([]string{"promote", "gateway", "--to", "v2.0.0", "--dry-run"}, base...)...)
	r.expect(t, ExitError, "v2.0.0 is not a release the board read for hanzoai/gateway (read: v1.10.0-rc.1, v1.9.0, v1.8.2)")
	// Any tag of the row's release list, a prerelease too, with its notes.
	r = e.runWithForge(t, g, append([]string{"promote", "gateway", "--to", "v1.10.0-rc.1", "--dry-run"}, base...)...)
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "v1.8.2 → v1.10.0-rc.1") || !strings.Contains(r.out, "release notes  "+releases.URL+"/hanzoai/gateway/releases/tag/v1.10.0-rc.1") {
		t.Fatalf("--to a listed prerelease, --dry-run:\n%s", r.out)
	}
	r = e.runWithForge(t, g, append([]string{"promote", "gateway", "--to", "latest", "--dry-run"}, base...)...)
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "v1.8.2 → v1.9.0") || !strings.Contains(r.out, "+    tag: v1.9.0 # moved by pull request") || g.Head(universe, "driftboard/main/gateway-v1.9.0") != "" {
		t.Fatalf("--dry-run:\n%s", r.out)
	}
	r = e.runWithForge(t, g, append([]string{"promote", "gateway", "--to", "latest", "--yes"}, base...)...)
	r.expect(t, ExitError, "production: --yes promotes it only with --env main")
	iss := startIssuer(t)
	e.loginAs(iss, iss.token(t, "u-ada", "ada@hanzo.ai", orgRole{Org: "admin", Role: "owner"}))
	r = e.runWithForge(t, g, append([]string{"promote", "gateway", "--env", "main", "--to", "latest", "--yes"}, base...)...)
	r.expect(t, ExitOK)
	if body := g.Body(universe, 1); !strings.Contains(body, "Asked by ada@hanzo.ai (IAM), as GitHub user octo-engineer") ||
		!strings.Contains(body, "Release notes: "+releases.URL+"/hanzoai/gateway/releases/tag/v1.9.0") {
		t.Errorf("the pull request does not name who asked or the release notes:\n%s", body)
	}
	if !strings.Contains(r.out, "pull request #1 opened: https://github.com/hanzoai/universe/pull/1") {
		t.Errorf("out:\n%s", r.out)
	}
	if got := string(g.File(universe, "driftboard/main/gateway-v1.9.0", "crs/gateway-v1.yaml")); got != strings.Replace(gatewayCR, "v1.8.2", "v1.9.0", 1) {
		t.Errorf("the branch holds:\n%s", got)
	}
	r = e.runWithForge(t, g, append([]string{"promote", "gateway", "--env", "main", "--to", "latest", "--yes"}, base...)...)
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "pull request #1 already open, reused") {
		t.Errorf("again:\n%s", r.out)
	}
}
