package cli

import (
	"strings"
	"testing"
	"time"
)

// Off a terminal without --yes, a refusal that --yes cannot lift comes
// first: no login, or an expired token, before any connection; a set's
// preview says it first too. (An allowed user's "pass --yes" is in
// TestCommandsAgainstAPIServer.)
func TestRestartOffTerminalSaysTheLoginFirst(t *testing.T) {
	iss := startIssuer(t)
	expired := iss.Token(map[string]any{
		"sub": "u-ops", "aud": []string{"hanzo-cli"}, "email": "ops@hanzo.ai", "orgs": []orgRole{{"admin", "admin"}},
	}, time.Now().Add(-time.Hour))
	for _, c := range []struct {
		name, token, want string
	}{
		{"not logged in", "", "not logged in"},
		{"expired token", expired, "expired"},
	} {
		e := newEnv(t)
		e.stdin = "iam\n" // even a correct answer on a pipe is not a confirmation
		if c.token != "" {
			e.loginAs(iss, c.token)
		}
		for _, args := range [][]string{
			{"restart", "iam", "--env", "main"},
			{"restart", "iam", "--env", "test"},
		} {
			r := e.run(t, append(args, "--kubeconfig", missingKubeconfig(t))...)
			r.expect(t, ExitError, "refused", c.want)
			for _, not := range []string{"stdin is not a terminal", "--yes", "kubeconfig"} {
				if strings.Contains(r.err, not) {
					t.Errorf("%s, %q: says %q before the login:\n%s", c.name, args, not, r.err)
				}
			}
		}
		// A set without --yes off a terminal is a preview: the login's
		// check comes first, then what it could not evaluate.
		r := e.run(t, "restart", "-q", "env:test", "--kubeconfig", missingKubeconfig(t))
		r.expect(t, ExitError, "✗ ")
		if login, kc := strings.Index(r.err, c.want), strings.Index(r.err, "kubeconfig"); login < 0 || kc >= 0 && kc < login {
			t.Errorf("%s, a set's preview: the login's check is not said first:\n%s", c.name, r.err)
		}
	}
}

// A dry run says the login's outcome among its checks; without a cluster
// to find the App in, that check is unknown, and unknown fails.
func TestRestartDryRunWithoutLoginOrCluster(t *testing.T) {
	e := newEnv(t)
	r := e.run(t, "restart", "iam", "--env", "test", "--dry-run", "--kubeconfig", missingKubeconfig(t))
	r.expect(t, ExitError, "could not evaluate every check (unknown: app)")
	for _, want := range []string{"✗ not logged in: run driftboard login", "✓ not read-only", "? unknown: the App could not be found"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	r = e.run(t, "--readonly", "restart", "iam", "--env", "test", "--dry-run", "--kubeconfig", missingKubeconfig(t))
	if r.expect(t, ExitError); !strings.Contains(r.out, "✗ Read-only mode") && !strings.Contains(r.out, "✗ read-only mode") {
		t.Errorf("a dry run in read-only mode does not list it:\n%s", r.out)
	}
}
