package cli

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// The one-shot commands against a real API server: JSON schema, exit codes
// for clean, drifted and error cases, get, and restart (dry run, typed
// confirmation).
func TestCommandsAgainstAPIServer(t *testing.T) {
	// Restarts are made as an IAM identity, on an API server that trusts
	// the test issuer (and nothing else) and is declared with --iam-cluster.
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{Controllers: true, AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo", "hanzo-testnet", "hanzo-devnet", "tenant-acme")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, a := range []struct{ ns, name, role, repo, tag string }{
		{"hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3"},
		{"hanzo-testnet", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3"},
		{"tenant-acme", "kv", "kv", "ghcr.io/hanzoai/kv", "v0.9.0"},
		{"hanzo-devnet", "queue", "queue", "ghcr.io/hanzoai/queue", "v2.0.0"},
	} {
		if err := c.SeedApp(ctx, a.ns, a.name, a.role, a.repo, a.tag, 1); err != nil {
			t.Fatal(err)
		}
	}
	// Full RBAC for every IAM user: the board's own scope is what refuses.
	grantClusterAdmin(ctx, t, c, "iam:u-ops", "iam:u-dana", "iam:u-bob")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.loginAs(iss, iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "admin"}))
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off", "--iam-cluster", "test"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }

	t.Run("clean list exits 0 with the documented JSON", func(t *testing.T) {
		// Clean once their pods run: a Deployment with none ready is red.
		for _, a := range [][2]string{{"hanzo", "iam"}, {"hanzo-testnet", "iam"}, {"hanzo-devnet", "queue"}} {
			waitReady(ctx, t, c, a[0], a[1])
		}
		waitStatefulSetReady(ctx, t, c, "tenant-acme", "kv")
		r := run("list", "-o", "json")
		r.expect(t, ExitOK)
		d := parseList(t, r.out)
		if len(d.Apps) != 4 || d.Summary.Total != 4 || d.count("ok") != 4 || d.count("red") != 0 {
			t.Fatalf("want 4 clean apps:\n%s", r.out)
		}
		if a := d.Apps[0]; *a.Cluster != "test" || *a.DeclaredTag != *a.RunningTag {
			t.Errorf("unexpected row: cluster %q declared %q running %q", *a.Cluster, *a.DeclaredTag, *a.RunningTag)
		}
		r = run("list")
		r.expect(t, ExitOK)
		if !strings.HasPrefix(r.out, "SEV") || strings.Count(r.out, "\n") != 5 || !strings.Contains(r.out, "tenant-acme") {
			t.Errorf("table output:\n%s", r.out)
		}
		r = run("list", "-o", "yaml", "-q", "env:test")
		r.expect(t, ExitOK)
		var y ListOutput
		if err := yaml.Unmarshal([]byte(r.out), &y); err != nil || len(y.Apps) != 1 || y.Apps[0].Namespace != "hanzo-testnet" {
			t.Errorf("list -o yaml -q env:test: %v\n%s", err, r.out)
		}
	})

	t.Run("GitHub unreachable: a clean fleet exits 0 and says checks are incomplete", func(t *testing.T) {
		e := newEnv(t)
		dir := filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		// Nothing listens on port 1: every release check fails.
		cfg := "releases:\n  githubURL: http://127.0.0.1:1/\n"
		if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"list", "-o", "json", "--kubeconfig", c.KubeconfigPath(), "--timeout", "60s"}
		r := e.run(t, args...)
		r.expect(t, ExitOK, "release checks incomplete: 4 of 4 rows wait on release checks (4 error)", "withheld")
		d := parseList(t, r.out)
		if d.count("ok") != 4 {
			t.Errorf("unread releases made rows drift: %v\n%s", d.Summary.ByDrift, r.out)
		}
		if !strings.Contains(r.out, `"waitingOnRelease": 4`) || !strings.Contains(r.out, `"state": "error"`) {
			t.Errorf("JSON does not say the releases were not read:\n%s", r.out)
		}
		e.run(t, append(args, "--fail-on-unknown")...).expect(t, ExitDrift, "release checks incomplete")
		// Checks off check nothing: --fail-on-unknown fails all the same.
		e.run(t, append(args, "--releases", "off")...).expect(t, ExitOK, "release checks are off")
		e.run(t, append(args, "--releases", "off", "--fail-on-unknown")...).expect(t, ExitDrift, "release checks are off")
	})

	t.Run("get prints one row with detail", func(t *testing.T) {
		r := run("get", "iam", "--env", "test", "-o", "json")
		r.expect(t, ExitOK)
		var v model.AppView
		if err := json.Unmarshal([]byte(r.out), &v); err != nil || v.Namespace != "hanzo-testnet" || v.App != "iam" {
			t.Fatalf("get -o json: %v\n%s", err, r.out)
		}
		r = run("get", "iam", "--env", "main")
		r.expect(t, ExitOK)
		for _, want := range []string{"declared (App spec)", "running (pods)", "v1.2.3", "hanzo (env main"} {
			if !strings.Contains(r.out, want) {
				t.Errorf("get detail lacks %q:\n%s", want, r.out)
			}
		}
		run("get", "nope", "--env", "test").expect(t, ExitError, `no App "nope" in env test`, "driftboard list")
	})

	t.Run("get finds the app as APP, NAMESPACE/APP or -n NS APP", func(t *testing.T) { testFindApp(t, run) })

	t.Run("app names complete from the cluster", func(t *testing.T) {
		r := e.run(t, "__complete", "get", "--kubeconfig", c.KubeconfigPath(), "--env", "main", "")
		r.expect(t, ExitOK)
		if lines := strings.Split(r.out, "\n"); !hasLinePrefix(lines, "iam") || !hasLinePrefix(lines, "kv") {
			t.Errorf("completions:\n%s", r.out)
		}
		r = e.run(t, "__complete", "restart", "--kubeconfig", c.KubeconfigPath(), "--env", "test", "")
		if lines := strings.Split(r.out, "\n"); !hasLinePrefix(lines, "iam") || hasLinePrefix(lines, "kv") {
			t.Errorf("completions for env test:\n%s", r.out)
		}
	})

	t.Run("restart --dry-run changes nothing", func(t *testing.T) {
		before := deployment(t, c, "hanzo-testnet", "iam")
		r := run("restart", "iam", "--env", "test", "--dry-run")
		// The identity notice comes from the cluster's state, the one the
		// board's status line shows.
		const notice = "notice: cluster test: read as IAM user iam:u-ops"
		r.expect(t, ExitOK, "Rolling restart of Deployment hanzo-testnet/iam in cluster test (env test)", notice, "ops@hanzo.ai")
		if !strings.Contains(r.out, "dry run") {
			t.Errorf("stdout: %q", r.out)
		}
		after := deployment(t, c, "hanzo-testnet", "iam")
		if after.gen != before.gen || after.restartedAt != "" || after.rv != before.rv {
			t.Errorf("dry run changed the Deployment: before %+v after %+v", before, after)
		}
		if n := restartEvents(t, c, "hanzo-testnet"); n != 0 {
			t.Errorf("dry run recorded %d Events", n)
		}
	})

	t.Run("the IAM scope applies as in the dialog", func(t *testing.T) { testIAMScope(t, e, iss, base) })

	t.Run("never as the kubeconfig user", func(t *testing.T) {
		// Not declared as trusting the issuer: read as the kubeconfig user
		// (full RBAC), the token never sent, the restart refused.
		since := time.Now() // the API server runs on this machine: one clock
		noFlag := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off"}
		e.run(t, append([]string{"restart", "iam", "--env", "test", "--yes"}, noFlag...)...).
			expect(t, ExitError, "read as kubeconfig user admin", "not declared as trusting", "Trust model")
		// Declared, but the user points the board at an issuer she runs
		// and mints herself a SuperAdmin: the API server answers 401, the
		// restart is refused, not performed as the kubeconfig user.
		own := startIssuer(t)
		mallory := *e
		mallory.vars = maps.Clone(e.vars)
		mallory.loginAs(own, own.token(t, "u-mallory", "mallory@acme.dev", orgRole{"admin", "admin"}))
		mallory.run(t, append([]string{"restart", "iam", "--env", "test", "--yes"}, base...)...).
			expect(t, ExitError, "rejected the IAM token (401)", "Trust model")
		if d := deployment(t, c, "hanzo-testnet", "iam"); d.restartedAt != "" {
			t.Fatalf("restarted on a cluster that did not get the IAM identity: %+v", d)
		}
		noPatch(t, c, since, "hanzo-testnet", "iam")
	})

	t.Run("--yes restarts production only when it was named", func(t *testing.T) {
		r := e.run(t, append([]string{"restart", "kv", "--yes"}, base...)...)
		r.expect(t, ExitError, "kv is in production (tenant-acme/kv)", "--env main")
		if n := restartEvents(t, c, "tenant-acme"); n != 0 {
			t.Fatalf("restarted production that was never named (%d Events)", n)
		}
	})

	t.Run("production restart needs the app name typed", func(t *testing.T) {
		tty := *e
		tty.inTerminal = true
		tty.stdin = "y\n" // enough for test/dev, not for main
		r := tty.run(t, append([]string{"restart", "iam", "--env", "main"}, base...)...)
		r.expect(t, ExitError, "type the App's name (iam)", "not confirmed")
		if d := deployment(t, c, "hanzo", "iam"); d.restartedAt != "" {
			t.Fatal("restarted without the typed confirmation")
		}
		tty.stdin = "iam\n"
		r = tty.run(t, append([]string{"restart", "iam", "--env", "main"}, base...)...)
		r.expect(t, ExitOK)
		if d := deployment(t, c, "hanzo", "iam"); d.restartedAt == "" {
			t.Fatalf("no restartedAt annotation after a confirmed restart; stdout %q", r.out)
		}
		if n := restartEvents(t, c, "hanzo"); n != 1 {
			t.Errorf("want 1 restart Event, got %d", n)
		}
		if d := deploymentBy(t, c, "hanzo", "iam"); d != "iam:u-ops" {
			t.Errorf("restartedBy = %q, want the IAM user", d)
		}
	})

	t.Run("restart --yes --wait follows the rollout to the end", func(t *testing.T) {
		waitReady(ctx, t, c, "hanzo-testnet", "iam") // the first rollout, on a node that just came up
		r := run("restart", "iam", "--env", "test", "--yes", "--wait", "--timeout", "2m")
		r.expect(t, ExitOK, "rollout:")
		if !strings.Contains(r.out, "rollout of hanzo-testnet/iam complete") {
			t.Errorf("stdout: %q", r.out)
		}
		if d := deployment(t, c, "hanzo-testnet", "iam"); d.restartedAt == "" {
			t.Error("no restartedAt annotation after the restart")
		}
	})

	t.Run("restart --wait fails when the rollout gets stuck", func(t *testing.T) {
		waitReady(ctx, t, c, "hanzo-devnet", "queue")
		// Pods of the next template can never be scheduled, and the
		// Deployment gives up on progress after a second.
		stuck := []byte(`{"spec":{"progressDeadlineSeconds":1,"template":{"spec":{"nodeSelector":{"type":"nowhere"}}}}}`)
		if _, err := c.AdminClient().AppsV1().Deployments("hanzo-devnet").Patch(ctx, "queue", types.StrategicMergePatchType, stuck, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		r := run("restart", "queue", "--env", "dev", "--yes", "--wait", "--timeout", "90s")
		r.expect(t, ExitError, "stuck")
		if strings.Contains(r.out, "complete") {
			t.Errorf("a stuck rollout was reported complete: %q", r.out)
		}
	})

	t.Run("a paused Deployment is refused", func(t *testing.T) {
		_, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Patch(ctx, "iam", types.MergePatchType,
			[]byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before := deployment(t, c, "hanzo-testnet", "iam")
		run("restart", "iam", "--env", "test", "--yes").expect(t, ExitError, "paused")
		if after := deployment(t, c, "hanzo-testnet", "iam"); after.restartedAt != before.restartedAt {
			t.Error("a paused Deployment was restarted")
		}
	})

	t.Run("drift exits 1 at or above --fail-on", func(t *testing.T) {
		setDeclaredTag(t, c, "hanzo-testnet", "iam", "v1.2.4") // un-rolled: yellow
		run("list", "-q", "env:test").expect(t, ExitOK)
		run("list", "-q", "env:test", "--fail-on", "yellow").expect(t, ExitDrift)

		setDeclaredTag(t, c, "hanzo", "iam", "main") // floating-declared: red
		r := run("list", "-o", "json")
		r.expect(t, ExitDrift)
		d := parseList(t, r.out)
		if d.count("red") != 1 || d.count("yellow") != 1 || d.count("ok") != 2 {
			t.Errorf("summary %v, want 1 red, 1 yellow, 2 ok", d.Summary.ByDrift)
		}
		if d.Apps[0].Drift.Severity != "red" || (*d.Apps[0].Drift.Flags)[0].Kind != "floating-declared" {
			t.Errorf("first row should be the red one:\n%s", r.out)
		}
		run("list", "--fail-on", "none").expect(t, ExitOK)
	})

	t.Run("missing App CRD exits 2", func(t *testing.T) {
		crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
		if err := c.AdminDynamic().Resource(crds).Delete(ctx, "apps.hanzo.ai", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		for { // deletion first removes the Apps, then the resource
			_, err := c.AdminDynamic().Resource(crds).Get(ctx, "apps.hanzo.ai", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("App CRD still there: %v", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		r := run("list", "-o", "json", "--timeout", "30s")
		r.expect(t, ExitError, "apps.hanzo.ai")
		if r.out != "" && parseList(t, r.out).Summary.Total != 0 {
			t.Errorf("rows printed without the App CRD:\n%s", r.out)
		}
	})
}
