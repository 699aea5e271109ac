package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/hanzoai/driftboard/model"
)

// vim's and less's paging: ctrl+d/u half a page, ctrl+f/b a whole one, on
// the board and in help; ctrl+z suspends as in any shell program.
func TestVimPagingKeys(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 12)
	var many []model.AppView
	for i := range 50 {
		many = append(many, app{ns: "hanzo", name: fmt.Sprintf("svc%02d", i), declared: "v1.0.0", running: "v1.0.0",
			latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	}
	src.upsert(many...)
	m.Update(snapshotMsg{src.Snapshot()})
	page := m.board.Height()
	for _, s := range []struct {
		key  string
		want int
	}{{"ctrl+d", page / 2}, {"ctrl+d", 2 * (page / 2)}, {"ctrl+u", page / 2}, {"ctrl+f", page/2 + page}, {"ctrl+b", page / 2}} {
		press(m, s.key)
		if m.board.Cursor() != s.want {
			t.Fatalf("after %s cursor %d, want %d (page %d)", s.key, m.board.Cursor(), s.want, page)
		}
	}
	help := ansi.Strip(strings.Join(m.helpLines(m.width), "\n"))
	for _, k := range []string{"ctrl+u", "ctrl+d", "ctrl+f", "ctrl+z"} {
		if !strings.Contains(help, k) {
			t.Errorf("help does not list %s:\n%s", k, help)
		}
	}
	if cmd := m.onKey(keyMsg("ctrl+z")); cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Suspend()) {
		t.Errorf("ctrl+z does not suspend")
	}
}
