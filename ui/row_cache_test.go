package ui

import (
	"context"
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// uncachedView is the frame drawn with every row line rendered afresh.
func uncachedView(m *Model) string {
	m.board.ForgetLines()
	m.frame.valid = false
	return m.View().Content
}

// redrawn is the next frame drawn with the row lines cached so far.
func redrawn(m *Model) string {
	m.frame.valid = false
	return m.View().Content
}

// TestRowCacheFollowsEverythingALineShows: after each change a line can
// show (the row's data, cursor, mark, a restart's spinner, width, the
// columns shown, sort, filter, theme, colour profile), the frame drawn from cached lines is
// byte for byte the frame drawn from none.
func TestRowCacheFollowsEverythingALineShows(t *testing.T) {
	src := newStoreSource()
	rows := bigFleet(300)
	src.upsert(rows...)
	// No DarkBackground: the terminal's answer restyles the board.
	m := newModel(context.Background(), fleetOf(src, allowed()), orgAdmin(), Options{Now: fixedNow})
	t.Cleanup(m.cancel)
	m.Update(identityMsg{orgAdmin().Current()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m.Update(snapshotMsg{src.Snapshot()})

	steps := []struct {
		name string
		do   func()
	}{
		{"row data", func() {
			r := rows[5]
			r.DeclaredTag = "v8.8.8"
			src.upsert(r)
			m.Update(snapshotMsg{src.Snapshot()})
		}},
		{"cursor down", func() { press(m, "down", "down") }},
		{"cursor up", func() { press(m, "up") }},
		{"mark", func() { press(m, "space") }},
		{"marked row left by the cursor", func() { press(m, "down") }},
		{"unmark", func() { press(m, "up", "space") }},
		{"restart in flight, spinner turns", func() {
			k := m.board.AllRows()[m.board.Offset()+3].Key()
			m.inflight[k] = &inflight{key: k}
			redrawn(m)
			m.spin, _ = m.spin.Update(m.spin.Tick())
		}},
		{"restart done", func() { clear(m.inflight) }},
		{"narrower: columns shrink", func() { m.Update(tea.WindowSizeMsg{Width: 120, Height: 30}) }},
		{"very wide: every column at its widest", func() { m.Update(tea.WindowSizeMsg{Width: 400, Height: 30}) }},
		{"wider: only the padding grows", func() { m.Update(tea.WindowSizeMsg{Width: 420, Height: 30}) }},
		{"back to 160", func() { m.Update(tea.WindowSizeMsg{Width: 160, Height: 30}) }},
		{"a second cluster adds its column", func() {
			a := app{cluster: "staging", ns: "hanzo", name: "svc-extra", declared: "v1", running: "v1", latest: "v1", ready: 1, updated: 1, assets: 1}
			src.upsert(a.build())
			m.Update(snapshotMsg{src.Snapshot()})
		}},
		{"sort", func() { press(m, "s") }},
		{"filter", func() {
			press(m, "/")
			typeText(m, "sev:red")
			press(m, "enter")
		}},
		{"filter cleared", func() { press(m, "esc") }},
		{"light theme", func() { m.Update(tea.BackgroundColorMsg{Color: color.White}) }},
		{"no colour", func() { m.Update(tea.ColorProfileMsg{Profile: colorprofile.ASCII}) }},
		{"colour again", func() { m.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor}) }},
	}
	redrawn(m)
	for _, s := range steps {
		s.do()
		got := redrawn(m)
		if want := uncachedView(m); got != want {
			t.Fatalf("after %s the cached frame differs from a fresh one:\ncached:\n%q\nfresh:\n%q", s.name, got, want)
		}
	}
}

// TestRowCacheRendersOnlyChangedRows: a frame after one shown row changed
// renders that row's line alone; every other shown row's line is reused.
func TestRowCacheRendersOnlyChangedRows(t *testing.T) {
	src, rows, m := nameSortedBoard(t, 300)
	redrawn(m)

	before := m.board.Rendered()
	r := rows[3]
	r.DeclaredTag = "v8.8.8"
	src.upsert(r)
	m.Update(snapshotMsg{src.Snapshot()})
	redrawn(m)
	if n := m.board.Rendered() - before; n != 1 {
		t.Fatalf("one shown row changed and %d row lines were rendered, want 1", n)
	}
}
