package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlatformStates(t *testing.T) {
	t.Parallel()
	t.Run("delegated role: no workload by design", func(t *testing.T) {
		a := baseApp()
		a.Role, a.ImageRepository, a.ImageTag = "dns", "", ""
		v := Build(a, nil, Release{State: ReleaseOff}, t0)
		if v.Workload.None != "delegated" || len(v.Problems) != 0 || v.Drift.Severity != "ok" {
			t.Errorf("dns row: none %q problems %v severity %s", v.Workload.None, v.Problems, v.Drift.Severity)
		}
	})
	t.Run("failed upgrade: in the detail, the JSON and the restart plan", func(t *testing.T) {
		a := baseApp()
		a.ImageTag = "v1.3.0"
		a.LastGoodImage = "ghcr.io/hanzoai/iam:v1.2.3"
		a.Upgrade = Upgrade{TargetImage: "ghcr.io/hanzoai/iam:v1.3.0", Phase: UpgradeFailed,
			History: []UpgradeRecord{{Image: "ghcr.io/hanzoai/iam:v1.3.0", Outcome: "RolledBack"}}}
		v := Build(a, baseWorkload(), foundRelease(), t0)
		b, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"upgrade":{"targetImage":"ghcr.io/hanzoai/iam:v1.3.0","phase":"Failed","lastGoodImage":"ghcr.io/hanzoai/iam:v1.2.3","history":[{"image":"ghcr.io/hanzoai/iam:v1.3.0","outcome":"RolledBack"}]}`) {
			t.Errorf("JSON lacks the upgrade state: %s", b)
		}
		plan := PlanRestart(&v)
		if !strings.Contains(strings.Join(plan.Warnings, "\n"), "a restart will not roll it — declare a new tag in git") {
			t.Errorf("restart plan does not say a restart will not roll it: %q", plan.Warnings)
		}
	})
	t.Run("a StatefulSet at its update revision with failing pods is rolled out, like a Deployment", func(t *testing.T) {
		a := baseApp()
		a.Role = "sql"
		wl := baseWorkload()
		wl.Kind, wl.Conditions, wl.ReadyReplicas, wl.RolledOut = KindStatefulSet, nil, 0, true
		v := Build(a, wl, foundRelease(), t0)
		if v.Workload.Rollout != RolloutComplete || v.Health != HealthRed {
			t.Errorf("rollout %q (%s) health %q, want complete and red", v.Workload.Rollout, v.Workload.Message, v.Health)
		}
		wl.RolledOut = false // a new revision rolling: progressing
		if v := Build(a, wl, foundRelease(), t0); v.Workload.Rollout != RolloutProgressing {
			t.Errorf("mid-rollout StatefulSet: %q, want progressing", v.Workload.Rollout)
		}
	})
}

func TestOrgPrecedence(t *testing.T) {
	t.Parallel()
	a := baseApp()
	a.Namespace = "tenant-weirdorg-0f3a"
	if v := Build(a, nil, Release{State: ReleaseOff}, t0); v.Org != "hanzo" {
		t.Errorf("no labels: org %q, want the image brand hanzo", v.Org)
	}
	a.NamespaceLabels = map[string]string{NamespaceOrgLabel: "weird_org"}
	if v := Build(a, nil, Release{State: ReleaseOff}, t0); v.Org != "weird_org" || v.ID != "weird_org/iam/main" {
		t.Errorf("namespace label: org %q id %q, want weird_org", v.Org, v.ID)
	}
	a.Annotations = map[string]string{OrgLabel: "app_org"}
	if v := Build(a, nil, Release{State: ReleaseOff}, t0); v.Org != "app_org" {
		t.Errorf("App annotation: org %q, want app_org (the App's own word wins)", v.Org)
	}
}
