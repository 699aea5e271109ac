package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/drift"
)

// TestOffScreenChangeDefersOnlyTheHeader: on a board bigger than the
// screen, a change to a row far below redraws nothing at once (its only
// visible effect, the header's figures, follows within headerDelay), while a
// change to a shown row is drawn by the very next frame.
func TestOffScreenChangeDefersOnlyTheHeader(t *testing.T) {
	src := newStoreSource()
	rows := bigFleet(500)
	src.upsert(rows...)
	dark := true
	m := newModel(context.Background(), src, nil, nil, Options{Now: fixedNow, DarkBackground: &dark})
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m.Update(snapshotMsg{src.Snapshot()})
	m.board.cycleSort() // by name: svc-00000 first, svc-00499 far below
	m.Update(snapshotMsg{src.Snapshot()})
	before := plainView(m)
	if !strings.Contains(before, "svc-00000") || strings.Contains(before, "svc-00499") {
		t.Fatalf("want svc-00000 on screen and svc-00499 off it:\n%s", before)
	}

	far := rows[499]
	far.Drift.Severity = drift.SeverityRed // the header's counts change
	src.upsert(far)
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if got := plainView(m); got != before {
		t.Fatalf("an off-screen change redrew the frame at once:\n%s", got)
	}
	if cmd == nil {
		t.Fatal("no header refresh was scheduled after a deferred change")
	}
	m.Update(headerDueMsg{})
	after := plainView(m)
	if summaryOf(after) == summaryOf(before) {
		t.Fatalf("the header did not catch up after headerDueMsg: %s", summaryOf(after))
	}

	near := rows[0]
	near.DeclaredTag = "v7.7.7"
	src.upsert(near)
	m.Update(snapshotMsg{src.Snapshot()})
	if got := plainView(m); !strings.Contains(got, "v7.7.7") {
		t.Fatalf("a change to a shown row is not on the next frame:\n%s", got)
	}
}

// summaryOf is the frame's second line (severity counts, rows shown).
func summaryOf(frame string) string {
	lines := strings.Split(frame, "\n")
	if len(lines) < 2 {
		return ""
	}
	return strings.TrimSpace(lines[1])
}
