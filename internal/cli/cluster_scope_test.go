package cli

import (
	"maps"
	"strings"
	"testing"
)

// testIAMScope: restarts follow the IAM scope as the board's dialog does, and
// off a terminal without --yes the scope's refusal is the one said (part of
// TestCommandsAgainstAPIServer: e is logged in as a SuperAdmin).
func testIAMScope(t *testing.T, e *cliEnv, iss *testIssuer, base []string) {
	acme := *e
	acme.vars = maps.Clone(e.vars)
	acme.loginAs(iss, iss.token(t, "u-dana", "dana@acme.dev", orgRole{"acme", "admin"}))
	// A dry run's refusal is its answer: exit 0, the role's line saying why.
	r := acme.run(t, append([]string{"restart", "iam", "--env", "main", "--dry-run"}, base...)...)
	r.expect(t, ExitOK)
	for _, want := range []string{"✓ logged in as dana@acme.dev (OrgAdmin of acme", "✗ dana@acme.dev is OrgAdmin of acme, but namespace hanzo belongs to hanzo",
		"would be refused: dana@acme.dev is OrgAdmin of acme, but namespace hanzo belongs to hanzo"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("an OrgAdmin's dry run in another org's namespace: stdout lacks %q:\n%s", want, r.out)
		}
	}
	acme.run(t, append([]string{"restart", "kv", "--env", "main", "--dry-run"}, base...)...).expect(t, ExitOK)
	member := acme
	member.vars = maps.Clone(acme.vars)
	member.loginAs(iss, iss.token(t, "u-bob", "bob@acme.dev", orgRole{"acme", "member"}))
	if r := member.run(t, append([]string{"restart", "kv", "--env", "main", "--dry-run"}, base...)...); r.code != ExitOK || !strings.Contains(r.out, "would be refused: ") || !strings.Contains(r.out, "only a member of acme") {
		t.Errorf("a member's dry run: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	// Off a terminal without --yes the scope's refusal comes first:
	// a --yes could not lift it, so it is not asked for.
	for _, c := range []struct {
		who  cliEnv
		args []string
		want string
	}{
		{acme, []string{"restart", "iam", "--env", "main"}, "OrgAdmin of acme, but namespace hanzo belongs to hanzo"},
		{member, []string{"restart", "kv", "--env", "main"}, "only a member of acme"},
	} {
		r := c.who.run(t, append(c.args, base...)...)
		r.expect(t, ExitError, c.want)
		if strings.Contains(r.err, "--yes") || strings.Contains(r.err, "not a terminal") {
			t.Errorf("%q: asks for --yes where the scope refuses:\n%s", c.args, r.err)
		}
	}
	// A set's preview says every refusal and exits 0: nothing was asked.
	member.run(t, append([]string{"restart", "-q", "env:main"}, base...)...).expect(t, ExitOK, "0 apps would be restarted, 2 would be refused")
	// An allowed user is asked for --yes, as before.
	e.run(t, append([]string{"restart", "iam", "--env", "test"}, base...)...).expect(t, ExitError, "refusing to restart iam without confirmation: stdin is not a terminal; pass --yes")
}
