package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// kubectl's habits against a real API server: -o name, jsonpath and
// custom-columns, --no-headers, --sort-by, get without an App, a table
// whose fifth field is always the cluster, --dry-run=none|client|server,
// and --context as the name of the App's context (--cluster its old one).
func TestKubectlHabitsAgainstAPIServer(t *testing.T) {
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{Controllers: true, AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo", "hanzo-testnet", "tenant-acme")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, a := range []struct{ ns, name, role, repo, tag string }{
		{"hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3"},
		{"hanzo-testnet", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.4"},
		{"tenant-acme", "kv", "kv", "ghcr.io/hanzoai/kv", "v0.9.0"},
	} {
		if err := c.SeedApp(ctx, a.ns, a.name, a.role, a.repo, a.tag, 1); err != nil {
			t.Fatal(err)
		}
	}
	grantClusterAdmin(ctx, t, c, "iam:u-ops")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.loginAs(iss, iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "admin"}))
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off", "--iam-cluster", "test"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }
	out := func(t *testing.T, args ...string) string {
		t.Helper()
		r := run(args...)
		r.expect(t, ExitOK)
		return r.out
	}

	t.Run("list and get print kubectl's formats", func(t *testing.T) {
		if got := out(t, "list", "-o", "name", "--sort-by", "namespace"); got != "hanzo/iam\nhanzo-testnet/iam\ntenant-acme/kv\n" {
			t.Errorf("list -o name:\n%s", got)
		}
		if got := out(t, "list", "-o", "jsonpath={.apps[*].declaredTag}", "--sort-by", "{.declaredTag}"); got != "v0.9.0 v1.2.3 v1.2.4" {
			t.Errorf("list -o jsonpath: %q", got)
		}
		got := out(t, "list", "-o", "custom-columns=NS:.namespace,TAG:.declaredTag,SEV:.drift.severity", "--no-headers", "--sort-by", ".namespace")
		if got != "hanzo          v1.2.3  ok\nhanzo-testnet  v1.2.4  ok\ntenant-acme    v0.9.0  ok\n" {
			t.Errorf("list -o custom-columns --no-headers:\n%s", got)
		}
		if got := out(t, "get", "hanzo-testnet/iam", "-o", "jsonpath={.runningTag}"); got != "v1.2.4" {
			t.Errorf("get -o jsonpath: %q", got)
		}
		if got := out(t, "get", "iam", "--env", "test", "-o", "name"); got != "hanzo-testnet/iam\n" {
			t.Errorf("get -o name: %q", got)
		}
	})

	t.Run("the table's fifth field is the cluster", func(t *testing.T) {
		lines := strings.Split(strings.TrimSpace(out(t, "list")), "\n")
		if len(lines) != 4 || strings.Fields(lines[0])[4] != "CLUSTER" || !strings.Contains(lines[0], " GIT ") {
			t.Fatalf("list:\n%s", strings.Join(lines, "\n"))
		}
		for _, l := range lines[1:] {
			if f := strings.Fields(l); f[4] != "test" {
				t.Errorf("$5 of %q is %q", l, f[4])
			}
		}
	})

	t.Run("get without an App lists, exiting 0 on drift", func(t *testing.T) {
		setDeclaredTag(t, c, "tenant-acme", "kv", "v0.9.1")
		run("list", "-q", "app:kv", "--fail-on", "yellow").expect(t, ExitDrift)
		r := run("get")
		r.expect(t, ExitOK)
		if lines := strings.Split(strings.TrimSpace(r.out), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "SEV") {
			t.Errorf("get without an App:\n%s", r.out)
		}
		if got := out(t, "get", "--env", "test", "-o", "name"); got != "hanzo-testnet/iam\n" {
			t.Errorf("get --env test -o name: %q", got)
		}
		if got := out(t, "get", "--context", "test", "-o", "custom-columns=APP:.app", "--no-headers", "--sort-by", "name"); got != "iam\niam\nkv\n" {
			t.Errorf("get --context test -o custom-columns: %q", got)
		}
		setDeclaredTag(t, c, "tenant-acme", "kv", "v0.9.0")
	})

	t.Run("--dry-run is none, client or server", func(t *testing.T) {
		before := deployment(t, c, "hanzo-testnet", "iam")
		since := time.Now()
		for _, flag := range []string{"--dry-run", "--dry-run=client"} {
			r := run("restart", "iam", "--env", "test", flag)
			r.expect(t, ExitOK, "Rolling restart of Deployment hanzo-testnet/iam")
			if !strings.Contains(r.out, "dry run (client): every check passed for deployment hanzo-testnet/iam; nothing was sent") {
				t.Errorf("%s: %q", flag, r.out)
			}
		}
		noPatch(t, c, since, "hanzo-testnet", "iam")
		r := run("restart", "iam", "--env", "test", "--dry-run=server")
		r.expect(t, ExitOK)
		if !strings.Contains(r.out, "dry run (server): the API server accepted the restart of deployment hanzo-testnet/iam") {
			t.Errorf("--dry-run=server: %q", r.out)
		}
		events, err := c.AuditEvents()
		if err != nil {
			t.Fatal(err)
		}
		dry := 0
		for _, ev := range events {
			if ev.Verb == "patch" && !ev.RequestReceivedTimestamp.Before(since) && ev.ObjectRef != nil &&
				ev.ObjectRef.Resource == "deployments" && ev.ObjectRef.Name == "iam" && ev.ObjectRef.Namespace == "hanzo-testnet" {
				if !strings.Contains(ev.RequestURI, "dryRun=All") {
					t.Errorf("a patch that is not a dry run: %s", ev.RequestURI)
				}
				dry++
			}
		}
		if dry == 0 {
			t.Error("--dry-run=server sent no patch")
		}
		if after := deployment(t, c, "hanzo-testnet", "iam"); after != before {
			t.Errorf("a dry run changed the Deployment: %+v → %+v", before, after)
		}
		run("restart", "iam", "--env", "test", "--dry-run=later").
			expect(t, ExitError, `--dry-run`, `must be none, client or server, not "later"`, "Run 'driftboard restart --help'")
		// none is no dry run: here it asks, and stdin is no terminal.
		run("restart", "iam", "--env", "test", "--dry-run=none").expect(t, ExitError, "stdin is not a terminal")
		// A set: client lists and sends nothing.
		since = time.Now()
		r = run("restart", "-q", "env:test", "--dry-run")
		r.expect(t, ExitOK, "dry run (client): 1 app would be restarted, 0 would be refused; nothing was sent")
		noPatch(t, c, since, "hanzo-testnet", "iam")
	})

	t.Run("a dry run lists every check; a refusal is its answer", func(t *testing.T) { testDryRunChecklist(t, c, e, base) })

	t.Run("--context names the App's context; --cluster is its old name", func(t *testing.T) {
		r := run("get", "iam", "--env", "test", "--context", "test", "-o", "name")
		r.expect(t, ExitOK)
		if strings.Contains(r.err, "Warning") {
			t.Errorf("--context warns:\n%s", r.err)
		}
		r = run("get", "iam", "--env", "test", "--cluster", "test", "-o", "name")
		r.expect(t, ExitOK, "Warning: --cluster is deprecated", "use --context test")
		if r.out != "hanzo-testnet/iam\n" {
			t.Errorf("get --cluster: %q", r.out)
		}
		run("get", "iam", "--env", "test", "--cluster", "test", "--context", "prod").expect(t, ExitError, "--cluster is the old name of --context")
	})
}
