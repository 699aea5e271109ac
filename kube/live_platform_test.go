package kube

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// The operator's own states, as a real API server stores them: a delegated
// role without image has no workload and no problem; a failed upgrade says
// a restart will not roll it, with its history.
func TestLivePlatformStates(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	createRawApp(t, c, "hanzo", "dns", map[string]any{"role": "dns", "image": map[string]any{"repository": ""}})
	patchApp(t, c, "hanzo", "dns", `{"status":{"phase":"Pending","conditions":[{"type":"Ready","status":"False","reason":"Delegated"}]}}`, "status")
	seed(t, c, "hanzo", "iam", "iam", "v1.3.0", 1)
	patchApp(t, c, "hanzo", "iam", `{"status":{"lastGoodImage":"ghcr.io/hanzoai/iam:v1.2.3",`+
		`"upgrade":{"targetImage":"ghcr.io/hanzoai/iam:v1.3.0","phase":"Failed"},`+
		`"upgradeHistory":[{"targetImage":"ghcr.io/hanzoai/iam:v1.3.0","phase":"RolledBack","message":"readiness probe failed"}]}}`, "status")
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})

	dns := waitRow(t, f, key("hanzo", "dns"), "delegated", func(r *model.AppView) bool { return r != nil && r.Phase == "Pending" })
	if len(dns.Problems) != 0 || dns.Workload.None != "delegated" || dns.Drift.Severity != "ok" {
		t.Errorf("delegated dns: problems %v none %q severity %s", dns.Problems, dns.Workload.None, dns.Drift.Severity)
	}
	iam := waitRow(t, f, key("hanzo", "iam"), "failed upgrade", func(r *model.AppView) bool { return r != nil && r.Upgrade != nil })
	if !iam.HasProblem(model.ProblemUpgradeFailed) || !strings.Contains(iam.Problems[0].Text, "rolled back to ghcr.io/hanzoai/iam:v1.2.3; a restart will not roll it") {
		t.Errorf("failed upgrade: problems %v", iam.Problems)
	}
	if h := iam.Upgrade.History; len(h) != 1 || h[0].Outcome != "RolledBack" || h[0].Image != "ghcr.io/hanzoai/iam:v1.3.0" {
		t.Errorf("upgrade history %+v", h)
	}
}
