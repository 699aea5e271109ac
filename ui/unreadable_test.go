package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// unreadableModel: the test fleet (iam ok among them) and pay, whose
// Deployment this identity may not read (forbidden); its declared tag is
// released and drifts in nothing the board could check.
func unreadableModel(t *testing.T, width, height int) *Model {
	t.Helper()
	dark := true
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{DarkBackground: &dark}, width, height)
	pay := model.AppObject{
		Key:  model.Key{Cluster: "prod", Namespace: "hanzo", Name: "pay"},
		Kind: "App", Role: "service", ImageRepository: "ghcr.io/hanzoai/pay", ImageTag: "v2.0.1", Phase: "Running",
	}
	wl := &model.Workload{Kind: model.KindDeployment, Name: "pay", Unreadable: "deployments in hanzo: forbidden"}
	rel := model.Release{State: model.ReleaseFound, LatestTag: "v2.0.1", URL: "https://github.com/hanzoai/pay/releases/tag/v2.0.1", Assets: 2}
	src.upsert(
		app{ns: "hanzo", name: "iam", declared: "v1.4.0", running: "v1.4.0", latest: "v1.4.0", ready: 2, updated: 2, assets: 3}.build(),
		model.Build(pay, wl, rel, t0),
	)
	m.Update(snapshotMsg{src.Snapshot()})
	return m
}

// A row whose workload may not be read is not "ok": its running tag, so
// un-rolled and floating-running, were never observed. The row shows ? n/a
// and running ?, the header counts it apart, the detail says why and claims
// no "no drift", nor "no workload, no pods".
func TestUnreadableWorkloadIsNotOK(t *testing.T) {
	m := unreadableModel(t, 140, 12)
	frame := plainView(m)
	for _, line := range strings.Split(frame, "\n") {
		if strings.Contains(line, " pay ") && (strings.Contains(line, "✓") || !strings.Contains(line, "?")) {
			t.Errorf("the unreadable row reads as ok: %q", line)
		}
	}
	if !strings.Contains(frame, "✓ 2 ok  ? 1 unreadable") {
		t.Errorf("the header counts the unreadable row as ok, or not at all:\n%s", frame)
	}
	m = unreadableModel(t, 100, 50)
	selectApp(t, m, "pay")
	press(m, "enter")
	frame = plainView(m)
	if !strings.Contains(frame, "? workload unreadable  un-rolled and floating-running are unknown: deployments in hanzo:") {
		t.Errorf("detail does not say which flags are unknown and why:\n%s", frame)
	}
	for _, claim := range []string{"no drift", "no workload, no pods"} {
		if strings.Contains(frame, claim) {
			t.Errorf("detail of an unreadable row claims %q:\n%s", claim, frame)
		}
	}
}
