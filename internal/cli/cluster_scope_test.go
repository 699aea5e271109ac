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
	acme.run(t, append([]string{"restart", "iam", "--env", "main", "--dry-run"}, base...)...).
		expect(t, ExitError, "OrgAdmin of acme, but namespace hanzo belongs to hanzo")
	acme.run(t, append([]string{"restart", "kv", "--env", "main", "--dry-run"}, base...)...).expect(t, ExitOK)
	member := acme
	member.vars = maps.Clone(acme.vars)
	member.loginAs(iss, iss.token(t, "u-bob", "bob@acme.dev", orgRole{"acme", "member"}))
	member.run(t, append([]string{"restart", "kv", "--env", "main", "--dry-run"}, base...)...).
		expect(t, ExitError, "only a member of acme")
	// Off a terminal without --yes the scope's refusal comes first:
	// a --yes could not lift it, so it is not asked for.
	for _, c := range []struct {
		who  cliEnv
		args []string
		want string
	}{
		{acme, []string{"restart", "iam", "--env", "main"}, "OrgAdmin of acme, but namespace hanzo belongs to hanzo"},
		{member, []string{"restart", "kv", "--env", "main"}, "only a member of acme"},
		{member, []string{"restart", "-q", "env:main"}, "0 restarted, 0 failed, 0 not started, 2 refused"},
	} {
		r := c.who.run(t, append(c.args, base...)...)
		r.expect(t, ExitError, c.want)
		if strings.Contains(r.err, "--yes") || strings.Contains(r.err, "not a terminal") {
			t.Errorf("%q: asks for --yes where the scope refuses:\n%s", c.args, r.err)
		}
	}
	// An allowed user is asked for --yes, as before.
	e.run(t, append([]string{"restart", "iam", "--env", "test"}, base...)...).expect(t, ExitError, "refusing to restart iam without confirmation: stdin is not a terminal; pass --yes")
}
