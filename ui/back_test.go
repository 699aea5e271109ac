package ui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/dialog"
)

func TestQAndEscGoBackFromSubViews(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	for _, back := range []string{"q", "esc"} {
		press(m, "enter")
		if m.screen != screenDetail {
			t.Fatalf("enter: screen %v", m.screen)
		}
		// help over the detail: back returns to the detail, not the board
		press(m, "?")
		_, cmd := m.Update(keyMsg(back))
		if m.screen != screenDetail || isQuit(cmd) {
			t.Fatalf("%s in help over the detail: screen %v, quit %v", back, m.screen, isQuit(cmd))
		}
		_, cmd = m.Update(keyMsg(back))
		if m.screen != screenBoard || isQuit(cmd) {
			t.Fatalf("%s in the detail: screen %v, quit %v", back, m.screen, isQuit(cmd))
		}
		press(m, "?")
		_, cmd = m.Update(keyMsg(back))
		if m.screen != screenBoard || isQuit(cmd) {
			t.Fatalf("%s in help: screen %v, quit %v", back, m.screen, isQuit(cmd))
		}
	}
	// a picker: q closes it
	press(m, "a")
	if dialog.Find[*dialog.Picker](m.dialogs) == nil {
		t.Fatal("a: no action menu")
	}
	if _, cmd := m.Update(keyMsg("q")); dialog.Find[*dialog.Picker](m.dialogs) != nil || isQuit(cmd) {
		t.Fatalf("q in the action menu: picker %v, quit %v", dialog.Find[*dialog.Picker](m.dialogs) != nil, isQuit(cmd))
	}
	// only on the board does q quit
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Fatal("q on the board does not quit")
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestCursorStartsOnRowOneWhileRowsArrive(t *testing.T) {
	src := newStoreSource()
	// The first snapshot holds one green app (the first cluster synced); the
	// rest arrive after and sort above it.
	src.upsert(app{ns: "hanzo-testnet", name: "queue", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	dark := true
	m := newModel(context.Background(), fleetOf(src, nil), nil, Options{Now: fixedNow, DarkBackground: &dark})
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(snapshotMsg{src.Snapshot()})
	src.upsert(fleet()...)
	m.Update(snapshotMsg{src.Snapshot()})
	if m.board.Cursor() != 0 || m.board.Selected() != m.board.AllRows()[0] {
		t.Fatalf("cursor on row %d (%s), want row 0 (%s)", m.board.Cursor(), m.board.Selected().App, m.board.AllRows()[0].App)
	}
	// Once the user picks an app, the cursor follows it.
	press(m, "j", "j")
	picked := m.board.Selected().App
	src.upsert(app{ns: "hanzo", name: "aaa", declared: "dev", running: "dev", ready: 2, updated: 2}.build())
	m.Update(snapshotMsg{src.Snapshot()})
	if m.board.Selected().App != picked || m.board.Cursor() != 3 {
		t.Fatalf("after a row sorted above it: cursor %d on %s, want 3 on %s", m.board.Cursor(), m.board.Selected().App, picked)
	}
}
