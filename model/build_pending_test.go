package model

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/drift"
)

func pendingWorkload(kind WorkloadKind) *Workload {
	return &Workload{Kind: kind, Name: "iam", Pending: "Deployments in hanzo not listed yet (cluster syncing)"}
}

// TestBuildPendingWorkload: a workload not listed yet is neither missing nor
// healthy: no no-workload problem, health syncing, no running tag, and no
// drift flag that needs the running tag, whatever the declared tag.
func TestBuildPendingWorkload(t *testing.T) {
	t.Parallel()
	v := Build(baseApp(), pendingWorkload(KindDeployment), foundRelease(), t0)
	if v.Health != HealthSyncing {
		t.Errorf("health %q, want %q", v.Health, HealthSyncing)
	}
	if v.RunningTag != "" || v.Workload.Found || v.Workload.SpecTag != "" {
		t.Errorf("pending workload reads as observed: running %q found %v spec %q", v.RunningTag, v.Workload.Found, v.Workload.SpecTag)
	}
	if !v.WaitsOnWorkload() || v.Workload.Pending == "" || v.Workload.Kind != KindDeployment || v.Workload.Name != "iam" {
		t.Errorf("workload view does not say pending: %+v", v.Workload)
	}
	if len(v.Problems) != 0 {
		t.Errorf("pending is not a problem (and never missing): %v", v.Problems)
	}
	if v.Drift.Severity != drift.SeverityOK || len(v.Drift.Flags) != 0 {
		t.Errorf("pending row drifts: %+v", v.Drift)
	}
	if v.Workload.Rollout != RolloutNone {
		t.Errorf("rollout %q of a workload not listed", v.Workload.Rollout)
	}

	// The declared tag alone still tells what it tells (floating-declared),
	// but nothing that needs the running tag (un-rolled, floating-running).
	a := baseApp()
	a.ImageTag = "latest"
	v = Build(a, pendingWorkload(KindDeployment), foundRelease(), t0)
	for _, f := range v.Drift.Flags {
		if f.Kind == drift.DriftUnrolled || f.Kind == drift.DriftFloatingRunning {
			t.Errorf("flag %s needs the running tag, which is unknown", f.Kind)
		}
	}
	if !v.HasFlag(drift.DriftFloatingDeclared) {
		t.Errorf("floating declared tag lost: %+v", v.Drift)
	}

	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"health":"syncing"`, `"pending":"Deployments in hanzo not listed yet (cluster syncing)"`, `"found":false`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
}

// TestBuildPendingRoleWithoutWorkload: a role that makes no workload has
// none to wait for: it reads as none by design, not pending.
func TestBuildPendingRoleWithoutWorkload(t *testing.T) {
	t.Parallel()
	a := baseApp()
	a.Role = "ingress"
	v := Build(a, pendingWorkload(KindNone), foundRelease(), t0)
	if v.WaitsOnWorkload() || v.Health == HealthSyncing || v.Workload.None == "" {
		t.Errorf("ingress waits on a workload: %+v health %q", v.Workload, v.Health)
	}
}

// TestPlanRestartPending: a workload not listed yet is not restarted, and
// the refusal says why.
func TestPlanRestartPending(t *testing.T) {
	t.Parallel()
	v := Build(baseApp(), pendingWorkload(KindDeployment), foundRelease(), t0)
	got := PlanRestart(&v).Blocked
	if !strings.Contains(got, "not listed yet") || !strings.Contains(got, "Restart refused") {
		t.Errorf("plan blocked %q, want the pending reason", got)
	}
	if why := WorkloadRestartBlock(v.Key(), "iam", pendingWorkload(KindDeployment)); !strings.Contains(why, "not listed yet") {
		t.Errorf("WorkloadRestartBlock %q, want the pending reason", why)
	}
}
