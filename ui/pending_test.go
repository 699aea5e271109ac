package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// pendingRow is a row of a syncing cluster whose workload is not listed yet.
func pendingRow(cluster, ns, name, declared string) model.AppView {
	obj := model.AppObject{
		Key:  model.Key{Cluster: cluster, Namespace: ns, Name: name},
		Kind: "App", Role: "service", ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: declared, Phase: "Running",
	}
	wl := &model.Workload{Kind: model.KindDeployment, Name: name, Pending: "Deployments not listed yet (cluster syncing)"}
	return model.Build(obj, wl, model.Release{State: model.ReleaseOff, Detail: "release checks are off"}, t0)
}

// pendingModel: cluster prod is live, cluster us syncs and has sent two of
// its ten Apps, whose workloads are not listed yet.
func pendingModel(t *testing.T, width, height int) *Model {
	t.Helper()
	dark := true
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{DarkBackground: &dark}, width, height)
	src.upsert(
		app{ns: "hanzo", name: "iam", declared: "v1.4.0", running: "v1.4.0", latest: "v1.4.0", ready: 2, updated: 2, assets: 3}.build(),
		pendingRow("us", "hanzo", "pay", "v2.0.1"),
		pendingRow("us", "hanzo", "mail", "latest"),
	)
	src.SetClusters([]model.ClusterState{
		{Name: "prod", Phase: model.ConnLive, Since: t0.Add(-time.Hour)},
		{Name: "us", Phase: model.ConnSyncing, Since: t0, Listed: 2, Expected: 10},
	})
	m.Update(snapshotMsg{src.Snapshot()})
	return m
}

// TestGoldenPendingRows: a syncing cluster's rows are on the board, marked
// pending: severity unknown unless the declared tag alone drifts, running
// tag "?", health syncing, rollout pending, never "no workload"; the header
// says syncing n/N.
func TestGoldenPendingRows(t *testing.T) {
	m := pendingModel(t, 120, 16)
	frame := plainView(m)
	checkGolden(t, "board_pending_w120", frame)
	for _, line := range strings.Split(frame, "\n") {
		if strings.Contains(line, " us ") && (strings.Contains(line, "no workload") || strings.Contains(line, "✓")) {
			t.Errorf("a pending row reads as ok or missing: %q", line)
		}
	}
	if !strings.Contains(frame, "✓ 2 ok  ? 1 pending") {
		t.Errorf("the header counts the pending row as ok, or not at all:\n%s", frame)
	}
}

// TestGoldenPendingDetail: the detail says why the workload is unknown and
// which drift flags wait on it, and claims no drift.
func TestGoldenPendingDetail(t *testing.T) {
	m := pendingModel(t, 100, 40)
	selectApp(t, m, "pay")
	press(m, "enter")
	frame := plainView(m)
	checkGolden(t, "detail_pending_w100", frame)
	for _, want := range []string{"not listed yet", "un-rolled and floating-running are unknown"} {
		if !strings.Contains(frame, want) {
			t.Errorf("detail lacks %q:\n%s", want, frame)
		}
	}
	if strings.Contains(frame, "no drift") || strings.Contains(frame, "not found") {
		t.Errorf("detail of a pending row claims what was not observed:\n%s", frame)
	}
}

// TestPendingRowRestartRefused: r on a pending row says why it is refused.
func TestPendingRowRestartRefused(t *testing.T) {
	m := pendingModel(t, 120, 16)
	selectApp(t, m, "pay")
	press(m, "r")
	if frame := plainView(m); !strings.Contains(frame, "not listed yet") {
		t.Errorf("restart of a pending row does not say why it is refused:\n%s", frame)
	}
}
