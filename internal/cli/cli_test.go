package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type result struct {
	code     int
	out, err string
}

// cliEnv is a test's isolated environment: no real home, login or config.
type cliEnv struct {
	vars       map[string]string
	stdin      string
	inTerminal bool
}

func newEnv(t *testing.T) *cliEnv {
	t.Helper()
	dir := t.TempDir()
	return &cliEnv{vars: map[string]string{
		"HOME":            dir,
		"HANZO_HOME":      filepath.Join(dir, ".hanzo"),
		"XDG_CONFIG_HOME": filepath.Join(dir, ".config"),
		"XDG_CACHE_HOME":  filepath.Join(dir, ".cache"),
	}}
}

// run drives the command in-process, like main does.
func (e *cliEnv) run(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, args, Streams{
		In: strings.NewReader(e.stdin), Out: &out, Err: &errb,
		InTerminal: e.inTerminal, OutTerminal: e.inTerminal,
		Getenv: func(k string) string { return e.vars[k] },
	})
	return result{code: code, out: out.String(), err: errb.String()}
}

func (r result) expect(t *testing.T, code int, stderrHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.out, r.err)
	}
	for _, s := range stderrHas {
		if !strings.Contains(r.err, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.err)
		}
	}
}

// missingKubeconfig makes any attempt to reach a cluster fail loudly, so a
// refusal that must come first is seen to come first.
func missingKubeconfig(t *testing.T) string {
	return filepath.Join(t.TempDir(), "no-such-kubeconfig")
}

// The App's name, namespace and env are checked before any connection.
func TestAppTargetRefusedBeforeConnecting(t *testing.T) {
	e := newEnv(t)
	kc := missingKubeconfig(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"restart", "iam", "--env", "prod", "--yes"}, "--env must be main, test or dev"},
		{[]string{"get", "hanzo/iam", "--env", "test"}, "namespace hanzo is env main, not test"},
		{[]string{"get", "hanzo/iam", "-n", "hanzo-testnet"}, "-n says hanzo-testnet"},
		{[]string{"get", "Hanzo/iam"}, "not a namespace name"},
		{[]string{"restart", "hanzo/iam:v2", "--yes"}, "does not change tags"},
	} {
		r := e.run(t, append(c.args, "--kubeconfig", kc)...)
		r.expect(t, ExitError, c.want)
		if strings.Contains(r.err, "kubeconfig") {
			t.Errorf("%q: refusal must come before connecting:\n%s", c.args, r.err)
		}
	}
}

func TestRestartRefusesTagChange(t *testing.T) {
	e := newEnv(t)
	kc := missingKubeconfig(t)
	e.run(t, "restart", "iam:v1.2.3", "--env", "test", "--yes", "--kubeconfig", kc).
		expect(t, ExitError, "does not change tags", "asked for iam:v1.2.3", "under infra/k8s/operator/crs/")
	e.run(t, "restart", "iam", "--tag", "v1.2.3", "--env", "test", "--yes", "--kubeconfig", kc).
		expect(t, ExitError, "does not change tags")
	e.run(t, "restart", "IAM_x", "--env", "test", "--yes", "--kubeconfig", kc).expect(t, ExitError, "not an App name")
}

func TestBoardNeedsTerminal(t *testing.T) {
	e := newEnv(t)
	r := e.run(t, "--kubeconfig", missingKubeconfig(t))
	r.expect(t, ExitError, "needs a terminal", "driftboard list")
	if r.out != "" {
		t.Errorf("nothing may be drawn to a pipe, got %q", r.out)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	e := newEnv(t)
	e.run(t, "frobnicate").expect(t, ExitError, "unknown command", "Run 'driftboard --help' for usage.")
	e.run(t, "list", "--no-such-flag").expect(t, ExitError, "unknown flag", "Run 'driftboard list --help' for usage.")
	e.run(t, "get", "a", "b").expect(t, ExitError, "get takes one App, not 2 (a b)", "Run 'driftboard get --help' for usage.")
	// get without an App lists, as kubectl's get: it gets as far as the kubeconfig.
	if r := e.run(t, "get", "--kubeconfig", missingKubeconfig(t)); r.code != ExitError || !strings.Contains(r.err, "no-such-kubeconfig") || strings.Contains(r.err, "--help") {
		t.Errorf("get without an App: exit %d\n%s", r.code, r.err)
	}
	e.run(t, "logs").expect(t, ExitError, "logs needs the App: APP, NAMESPACE/APP", "Run 'driftboard logs --help' for usage.")
	e.run(t, "list", "-o", "xml").expect(t, ExitError, "-o must be table, wide, json or yaml", "Run 'driftboard list --help'")
	e.run(t, "watch", "-o", "xml").expect(t, ExitError, `-o must be text, jsonl or json, not "xml"`, "Run 'driftboard watch --help'")
	// watch -o json is kubectl's -w -o json, accepted: it gets as far as the kubeconfig.
	if r := e.run(t, "watch", "-o", "json", "--kubeconfig", missingKubeconfig(t)); r.code != ExitError || !strings.Contains(r.err, "no-such-kubeconfig") {
		t.Errorf("watch -o json: exit %d\n%s", r.code, r.err)
	}
	// get's -o is checked before any connection: no text where a script asked for JSON.
	e.run(t, "get", "iam", "-o", "jsn", "--kubeconfig", missingKubeconfig(t)).
		expect(t, ExitError, `-o must be text, json or yaml, not "jsn"`, "Run 'driftboard get --help'")
	// An error that is not a usage mistake gets no help hint.
	r := e.run(t, "list", "--kubeconfig", missingKubeconfig(t))
	r.expect(t, ExitError, "error: ")
	if strings.Contains(r.err, "--help") {
		t.Errorf("a cluster error points at --help:\n%s", r.err)
	}
	e.run(t, "list", "--fail-on", "green").expect(t, ExitError, "--fail-on must be")
	e.run(t, "list", "-q", "sev:purple").expect(t, ExitError, "-q:")
	e.run(t, "list", "-n", "a", "-A").expect(t, ExitError, "exclude each other")
	e.run(t, "list", "--releases", "maybe").expect(t, ExitError, "--releases must be on or off")
	e.run(t, "list", "--compression", "gzip").expect(t, ExitError, "--compression must be auto, on or off")
	// A selector the API server would refuse is a usage error before any
	// connection, not a cluster whose list "keeps failing (retrying)".
	r = e.run(t, "list", "-l", "bad selector!!", "--kubeconfig", missingKubeconfig(t))
	r.expect(t, ExitError, "-l/--selector: unable to parse requirement", "Run 'driftboard list --help'")
	e.run(t, "list", "-l", "app.kubernetes.io/part-of=iam,tier notin (db)", "--kubeconfig", missingKubeconfig(t)).
		expect(t, ExitError, "load kubeconfig") // a good selector goes on to connect
}

func TestListUnreachableClusterExits2(t *testing.T) {
	e := newEnv(t)
	kc := writeKubeconfig(t, "https://127.0.0.1:1", "dead")
	r := e.run(t, "list", "--kubeconfig", kc, "--releases=off", "--timeout", "20s", "-o", "json")
	r.expect(t, ExitError, "dead")
	if r.out != "" {
		t.Errorf("no data may be printed when no cluster was read, got %q", r.out)
	}
	// Named namespaces: the server that cannot be reached is the reason,
	// not a namespace found unreadable.
	r = e.run(t, "list", "--kubeconfig", kc, "--releases=off", "--timeout", "20s", "-n", "hanzo")
	r.expect(t, ExitError, "connection refused")
	if strings.Contains(r.err, "namespace") {
		t.Errorf("an unreachable server blamed on the namespace:\n%s", r.err)
	}
}

func TestCompletionScriptsGenerate(t *testing.T) {
	e := newEnv(t)
	for shell, marker := range map[string]string{
		"bash": "__start_driftboard",
		"zsh":  "#compdef driftboard",
		"fish": "complete -c driftboard",
	} {
		r := e.run(t, "completion", shell)
		r.expect(t, ExitOK)
		if !strings.Contains(r.out, marker) || len(r.out) < 1000 {
			t.Errorf("%s script lacks %q (%d bytes)", shell, marker, len(r.out))
		}
	}
	e.run(t, "completion", "tcsh").expect(t, ExitError, "invalid argument") // powershell has one now (TestCompletionShells)
}

func TestDynamicCompletion(t *testing.T) {
	e := newEnv(t)
	kc := writeKubeconfig(t, "https://127.0.0.1:1", "prod-eu", "prod-us", "staging")
	cases := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"--kubeconfig", kc, "list", "--context", "prod"}, []string{"prod-eu", "prod-us"}, []string{"staging"}},
		{[]string{"--kubeconfig", kc, "list", "--context", "prod-eu,"}, []string{"prod-eu,prod-us", "prod-eu,staging"}, []string{"prod-eu,prod-eu"}},
		{[]string{"restart", "iam", "--env", ""}, []string{"main", "test", "dev"}, nil},
		{[]string{"list", "-o", ""}, []string{"table", "wide", "json", "yaml"}, nil},
		{[]string{"res"}, []string{"restart"}, []string{"list"}},
		{[]string{"list", "--fail"}, []string{"--fail-on"}, nil},
	}
	for _, tc := range cases {
		r := e.run(t, append([]string{"__complete"}, tc.args...)...)
		r.expect(t, ExitOK)
		lines := strings.Split(r.out, "\n")
		for _, w := range tc.want {
			if !hasLinePrefix(lines, w) {
				t.Errorf("completing %q: missing %q in\n%s", tc.args, w, r.out)
			}
		}
		for _, n := range tc.not {
			if hasLinePrefix(lines, n) {
				t.Errorf("completing %q: unexpected %q in\n%s", tc.args, n, r.out)
			}
		}
	}
}

func hasLinePrefix(lines []string, s string) bool {
	for _, l := range lines {
		if l == s || strings.HasPrefix(l, s+"\t") {
			return true
		}
	}
	return false
}

// writeKubeconfig writes a kubeconfig whose contexts all point at server.
func writeKubeconfig(t *testing.T, server string, contexts ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + server +
		"\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: not-a-real-token\ncontexts:\n")
	for _, c := range contexts {
		b.WriteString("- name: " + c + "\n  context:\n    cluster: c\n    user: u\n")
	}
	b.WriteString("current-context: " + contexts[0] + "\n")
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestIdentityCommandsWithoutLogin(t *testing.T) {
	e := newEnv(t)
	e.run(t, "whoami").expect(t, ExitError, "not logged in")
	e.run(t, "whoami", "-o", "yaml").expect(t, ExitError, "-o must be text or json")
	r := e.run(t, "logout")
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "Not logged in") {
		t.Errorf("logout without a login: %q", r.out)
	}
}

// Read-only mode (the flag or the config file) is the refusal given, before
// a login or a --yes is asked for, and before any connection.
func TestRestartReadOnlyRefusedFirst(t *testing.T) {
	e := newEnv(t)
	kc := missingKubeconfig(t)
	for _, args := range [][]string{
		{"--readonly", "restart", "iam", "--env", "test"},
		{"--readonly", "restart", "iam", "--env", "test", "--yes"},
		{"--readonly", "restart", "-q", "env:test", "--yes"},
	} {
		r := e.run(t, append(args, "--kubeconfig", kc)...)
		r.expect(t, ExitError, "read-only mode")
		for _, not := range []string{"not logged in", "stdin is not a terminal", "kubeconfig"} {
			if strings.Contains(r.err, not) {
				t.Errorf("%q: says %q instead of read-only first:\n%s", args, not, r.err)
			}
		}
	}
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("readOnly: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run(t, "restart", "iam", "--env", "test", "--yes", "--config", cfg, "--kubeconfig", kc).expect(t, ExitError, "read-only mode")
}

// --max-parallel's default is the config's: help says so once, without a
// "(default 3)" that a config of 5 would make false.
func TestRestartHelpMaxParallelDefault(t *testing.T) {
	r := newEnv(t).run(t, "restart", "--help")
	r.expect(t, ExitOK)
	for _, l := range strings.Split(r.out, "\n") {
		if strings.Contains(l, "--max-parallel int") {
			if strings.Contains(l, "(default 3)") || !strings.Contains(l, "restart.maxParallel in the config, else 3") {
				t.Fatalf("--max-parallel help: %q", l)
			}
			return
		}
	}
	t.Fatalf("no --max-parallel in restart --help:\n%s", r.out)
}
