package kube

import (
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A `kubectl rollout restart` is the row's last restart, with its time.
func TestLiveKubectlRolloutRestartIsShown(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seeded", func(r *model.AppView) bool { return r != nil })
	before := time.Now().Add(-time.Second)
	if out, err := c.Kubectl(ctxT(t), "rollout", "restart", "deployment/iam", "-n", "hanzo"); err != nil {
		t.Fatalf("kubectl rollout restart: %v\n%s", err, out)
	}
	row := waitRow(t, f, iam, "kubectl restart", func(r *model.AppView) bool { return r != nil && r.Workload.RestartedAt != "" })
	at, err := time.Parse(time.RFC3339, row.Workload.RestartedAt)
	if err != nil || at.Before(before.Truncate(time.Second)) || row.Workload.RestartedBy != "kubectl rollout restart" {
		t.Errorf("last restart %q by %q (%v), want a time after %s by kubectl", row.Workload.RestartedAt, row.Workload.RestartedBy, err, before)
	}

	// A new declared tag: un-rolled since the API server recorded the
	// operation that set it (managedFields), not since this board saw it.
	setAt := time.Now().Add(-time.Second).Truncate(time.Second)
	patchApp(t, c, "hanzo", "iam", `{"spec":{"image":{"tag":"v1.1.0"}}}`)
	row = waitRow(t, f, iam, "un-rolled", func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v1.1.0" })
	if row.DriftSince == nil || row.DriftSince.Before(setAt) || row.DriftSince.After(time.Now()) {
		t.Errorf("drift since %v, want the tag's set time (after %s)", row.DriftSince, setAt)
	}
}
