package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Errors and warnings on stderr wear kubectl's prefixes, error: and
// Warning:, and nothing on stderr is markdown.
func TestStderrPrefixesAreKubectls(t *testing.T) {
	e := newEnv(t)
	kc := missingKubeconfig(t)
	for _, args := range [][]string{
		{"list", "--kubeconfig", kc},
		{"list", "--fail-on", "green"},
		{"whoami"},
		{"frobnicate"},
	} {
		r := e.run(t, args...)
		r.expect(t, ExitError, "error: ")
		if !strings.HasPrefix(r.err, "error: ") || strings.Contains(r.err, "driftboard: ") {
			t.Errorf("%q: stderr does not open with error:\n%s", args, r.err)
		}
		if strings.Contains(r.err, "`") {
			t.Errorf("%q: markdown backticks on stderr:\n%s", args, r.err)
		}
	}
	var buf bytes.Buffer
	now := time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC)
	waiting := &model.AppView{DeclaredTag: "v1", Release: model.Release{State: model.ReleaseRateLimited}}
	warnUncheckedReleases(&buf, []*model.AppView{waiting}, model.ReleaseChecks{LimitedUntil: now.Add(time.Hour), Failing: "GitHub: no such host", FailingChecks: 1}, now)
	warnUnreadableWorkloads(&buf, []*model.AppView{{Workload: model.WorkloadView{Unreadable: "forbidden"}}})
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if !strings.HasPrefix(l, "Warning: ") {
			t.Errorf("a warning without kubectl's prefix: %q", l)
		}
	}
}

// A mistyped command gets cobra's suggestions, at the top and below.
func TestUnknownCommandSuggests(t *testing.T) {
	e := newEnv(t)
	r := e.run(t, "lst")
	r.expect(t, ExitError, `unknown command "lst" for "driftboard"`, "Did you mean this?\n", "\tlist\n", "Run 'driftboard --help' for usage.")
	r = e.run(t, "config", "shema")
	r.expect(t, ExitError, `unknown command "shema" for "driftboard config"`, "Did you mean this?\n\tschema\n")
	// Nothing close: no suggestion.
	if r := e.run(t, "frobnicate"); strings.Contains(r.err, "Did you mean") {
		t.Errorf("a suggestion for frobnicate:\n%s", r.err)
	}
}

// Global flags are listed once, on 'driftboard options'; a command's help
// lists its own flags and points there.
func TestGlobalFlagsOnOptionsPage(t *testing.T) {
	e := newEnv(t)
	for _, args := range [][]string{{"--help"}, {"list", "--help"}, {"restart", "--help"}, {"config", "--help"}} {
		r := e.run(t, args...)
		r.expect(t, ExitOK)
		if strings.Contains(r.out, "--kubeconfig") || strings.Contains(r.out, "Global Flags") {
			t.Errorf("%q lists the global flags:\n%s", args, r.out)
		}
		if !strings.Contains(r.out, `Use "driftboard options" for a list of global command-line options (applies to all commands).`) {
			t.Errorf("%q does not point at driftboard options:\n%s", args, r.out)
		}
	}
	if r := e.run(t, "list", "--help"); !strings.Contains(r.out, "--fail-on") {
		t.Errorf("list --help lacks its own flags:\n%s", r.out)
	}
	r := e.run(t, "options")
	r.expect(t, ExitOK)
	for _, want := range []string{"--kubeconfig", "--context", "-n, --namespace", "--readonly", "--config"} {
		if strings.Count(r.out, want) != 1 {
			t.Errorf("options lists %q %d times:\n%s", want, strings.Count(r.out, want), r.out)
		}
	}
	if strings.Contains(r.out, "--fail-on") {
		t.Errorf("options lists a command's own flag:\n%s", r.out)
	}
}

// Run as kubectl's plugin (kubectl-driftboard), help and hints say
// 'kubectl driftboard'.
func TestKubectlPluginName(t *testing.T) {
	e := newEnv(t)
	run := func(args ...string) result {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Streams{In: strings.NewReader(""), Out: &out, Err: &errb,
			Program: "/home/u/.krew/bin/kubectl-driftboard", Getenv: func(k string) string { return e.vars[k] }})
		return result{code: code, out: out.String(), err: errb.String()}
	}
	r := run("--help")
	r.expect(t, ExitOK)
	for _, want := range []string{"kubectl driftboard [command]", "  kubectl driftboard list", `Use "kubectl driftboard options"`} {
		if !strings.Contains(r.out, want) {
			t.Errorf("kubectl driftboard --help lacks %q:\n%s", want, r.out)
		}
	}
	if r := run("list", "--help"); !strings.Contains(r.out, "kubectl driftboard list [flags]") {
		t.Errorf("list --help as a plugin:\n%s", r.out)
	}
	run("list", "--no-such-flag").expect(t, ExitError, "Run 'kubectl driftboard list --help' for usage.")
	if r := e.run(t, "--help"); strings.Contains(r.out, "kubectl driftboard") {
		t.Errorf("plain driftboard says kubectl driftboard:\n%s", r.out)
	}
}

// The rule for --context and --cluster is said in the help of the commands
// that name an App; --cluster is not offered as a flag of its own.
func TestContextRuleInHelp(t *testing.T) {
	e := newEnv(t)
	for _, c := range []string{"get", "restart"} {
		r := e.run(t, c, "--help")
		r.expect(t, ExitOK)
		if !strings.Contains(strings.Join(strings.Fields(r.out), " "), "kubectl's --cluster names a kubeconfig cluster entry, not a context") {
			t.Errorf("%s --help does not say what --cluster means:\n%s", c, r.out)
		}
		for _, l := range strings.Split(r.out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "--cluster") {
				t.Errorf("%s --help offers --cluster: %q", c, l)
			}
		}
	}
}
