package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// testFindApp: get finds the app as APP, NAMESPACE/APP or -n NS APP, the
// env following from the namespace (run: the command against the cluster
// of TestCommandsAgainstAPIServer).
func testFindApp(t *testing.T, run func(args ...string) result) {
	// iam is in hanzo (main) and hanzo-testnet (test): the name alone is ambiguous.
	run("get", "iam").expect(t, ExitError, "several places", "hanzo/iam (env main", "hanzo-testnet/iam (env test", "--env")
	for _, args := range [][]string{{"get", "hanzo-testnet/iam", "-o", "json"}, {"get", "-n", "hanzo-testnet", "iam", "-o", "json"}} {
		r := run(args...)
		r.expect(t, ExitOK)
		var v model.AppView
		if err := json.Unmarshal([]byte(r.out), &v); err != nil || v.Namespace != "hanzo-testnet" || v.Env != model.EnvTest {
			t.Errorf("%q: %v\n%s", args, err, r.out)
		}
	}
	// kv lives only in tenant-acme: no --env needed, the env follows.
	if r := run("get", "kv"); r.code != ExitOK || !strings.Contains(r.out, "tenant-acme (env main") {
		t.Errorf("get kv: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
