package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

// problemRow builds a clean row through model.Build, then lets change break
// it the way a real cluster can.
func problemRow(name string, change func(*model.AppObject, **model.Workload)) model.AppView {
	repo := "ghcr.io/hanzoai/" + name
	obj := model.AppObject{
		Key:  model.Key{Cluster: "prod", Namespace: "hanzo", Name: name},
		Kind: "App", ImageRepository: repo, ImageTag: "v1.0.0", Phase: "Running",
	}
	r := int32(1)
	wl := &model.Workload{
		Kind: model.KindDeployment, Name: name, OwnedByApp: true, Replicas: &r,
		ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
		Containers: []model.Container{{Name: name, Image: repo + ":v1.0.0"}},
	}
	change(&obj, &wl)
	rel := model.Release{State: model.ReleaseFound, LatestTag: "v1.0.0", Assets: 1, URL: "https://github.com/x", CheckedAt: t0}
	return model.Build(obj, wl, rel, t0)
}

// A row whose only trouble is a problem is ok by the drift contract, yet
// not ✓: a missing workload makes it red, the board marks it, and n/N stop
// on it.
func TestProblemRowsMarkedAndJumpedTo(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 30)
	src.upsert(problemRow("vault", func(_ *model.AppObject, wl **model.Workload) { *wl = nil }))
	m.Update(snapshotMsg{src.Snapshot()})

	var line string
	for _, l := range strings.Split(plainView(m), "\n") {
		if strings.Contains(l, " vault ") {
			line = l
		}
	}
	if !strings.Contains(line, "✖ red") || !strings.HasSuffix(strings.TrimRight(line, " "), "! no workload") {
		t.Fatalf("vault row is not red with the problem marker in FLAGS: %q", line)
	}
	st := styles.New(true, false)
	if !hasColour(st.Warn.Pre) || !strings.Contains(m.View().Content, st.Warn.Pre+"! no workload") {
		t.Errorf("the problem marker is not in the warning colour")
	}

	// n from the row before vault stops on it, N goes back.
	rows := m.board.AllRows()
	at := slices.IndexFunc(rows, func(r *model.AppView) bool { return r.App == "vault" })
	if at < 1 {
		t.Fatalf("vault at %d in %v", at, rowNames(m))
	}
	m.board.MoveTo(at - 1)
	press(m, "n")
	if got := m.board.Selected().App; got != "vault" {
		t.Errorf("n went to %q, want vault (rows %v)", got, rowNames(m))
	}
	press(m, "N")
	if got := m.board.Selected(); got != rows[at-1] {
		t.Errorf("N from vault went to %q, want %q", got.App, rows[at-1].App)
	}
	// Severity order puts the ✓ rows last: from the last other row, n
	// wraps past them to the first.
	last := -1
	for i, r := range rows {
		if r.Verdict().Mark != model.MarkOK {
			last = i
		}
	}
	m.board.MoveTo(last)
	press(m, "n")
	if got := m.board.Selected(); got != rows[0] {
		t.Errorf("n from the last row that is not ✓ went to %q, want the first row %q (wrapping past clean rows)", got.App, rows[0].App)
	}
}
