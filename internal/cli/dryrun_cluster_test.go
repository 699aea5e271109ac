package cli

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// testDryRunChecklist: a dry run prints the plan and every check with its
// outcome, and a refusal is its answer (exit 0): without a login the App is
// still found and planned, the login's line says what to do, and nothing is
// sent, not even by --dry-run=server (part of TestKubectlHabitsAgainstAPIServer:
// e is logged in as a SuperAdmin and the cluster trusts the issuer).
func testDryRunChecklist(t *testing.T, c *testcluster.Cluster, e *cliEnv, base []string) {
	has := func(t *testing.T, r result, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(r.out, w) {
				t.Errorf("stdout lacks %q:\n%s", w, r.out)
			}
		}
	}
	plan := []string{"Plan:", "App:       iam", "Cluster:   test", "Namespace: hanzo-testnet", "Workload:  Deployment iam", "Env:       test"}

	r := e.run(t, append([]string{"restart", "iam", "--env", "test", "--dry-run"}, base...)...)
	r.expect(t, ExitOK)
	has(t, r, plan...)
	has(t, r, "✓ logged in as ops@hanzo.ai (SuperAdmin, token valid ", "✓ not read-only",
		"✓ cluster test is trusted in iam.clusters, pinned to its server https://",
		"✓ ops@hanzo.ai is a SuperAdmin", "✓ the API server of cluster test trusts the issuer: it says you are iam:u-ops (SelfSubjectReview)",
		"✓ Kubernetes RBAC allows iam:u-ops", "✓ confirmation needed: y (or --yes)", "dry run (client): every check passed")

	nobody := *e
	nobody.vars = maps.Clone(e.vars)
	delete(nobody.vars, "HANZO_TOKEN")
	since := time.Now()
	for _, flag := range []string{"--dry-run", "--dry-run=server"} {
		r := nobody.run(t, append([]string{"restart", "iam", "--env", "test", flag}, base...)...)
		r.expect(t, ExitOK)
		has(t, r, plan...)
		has(t, r, "✗ not logged in: run driftboard login", "✓ cluster test is trusted in iam.clusters",
			"- access-review: not checked", "would be refused: not logged in: run driftboard login")
		if strings.Contains(r.out, "dry run (") {
			t.Errorf("%s without a login claims a dry run:\n%s", flag, r.out)
		}
	}
	noPatch(t, c, since, "hanzo-testnet", "iam")

	// -o json: the same checklist, as one object.
	r = nobody.run(t, append([]string{"restart", "iam", "--env", "test", "--dry-run", "-o", "json"}, base...)...)
	r.expect(t, ExitOK)
	var doc struct {
		Plan    struct{ App, Namespace, Workload string }
		Checks  []model.Check
		Verdict string
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("-o json: %v\n%s", err, r.out)
	}
	if doc.Verdict != "refused" || doc.Plan.Namespace != "hanzo-testnet" || len(doc.Checks) == 0 ||
		doc.Checks[0].Name != model.CheckLogin || doc.Checks[0].State != model.CheckRefused {
		t.Errorf("-o json: %+v", doc)
	}

	// A set's preview (no --yes, off a terminal) is a refusal's answer too.
	r = nobody.run(t, append([]string{"restart", "-q", "env:test"}, base...)...)
	r.expect(t, ExitOK, "✗ not logged in", "0 apps would be restarted, 1 would be refused; nothing was changed")
	if !strings.Contains(r.out, "refused       test/hanzo-testnet/iam: not logged in") {
		t.Errorf("set preview:\n%s", r.out)
	}
	r = e.run(t, append([]string{"restart", "-q", "env:test"}, base...)...)
	r.expect(t, ExitOK, "✓ logged in as ops@hanzo.ai", "1 app would be restarted, 0 would be refused; nothing was changed (pass --yes to restart them)")
}
