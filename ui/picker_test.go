package ui

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
)

func TestSavedFilters(t *testing.T) {
	saved := map[string]string{"prod red": "env:main sev:red", "devnet": "ns:hanzo-devnet"}
	m, _ := newTestModel(t, nil, nil, Options{SavedFilters: saved}, 100, 30)
	press(m, "f")
	if dialog.Find[*dialog.Picker](m.dialogs) == nil {
		t.Fatal("f opens no list")
	}
	if v := plainView(m); !strings.Contains(v, "Saved filters") || !strings.Contains(v, "prod red") {
		t.Fatalf("list not shown:\n%s", v)
	}
	press(m, "j", "enter") // sorted: devnet, prod red
	if dialog.Find[*dialog.Picker](m.dialogs) != nil || m.filter.Text() != "env:main sev:red" {
		t.Fatalf("after enter: list open=%v filter %q", dialog.Find[*dialog.Picker](m.dialogs) != nil, m.filter.Text())
	}
	if got := rowNames(m); len(got) != 1 || got[0] != "console" {
		t.Fatalf("rows %v, want [console]", got)
	}

	none, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(none, "f")
	if dialog.Find[*dialog.Picker](none.dialogs) != nil {
		t.Fatal("f without saved filters opened a list")
	}
	// f is never silent: without saved filters it says how to add one.
	if v := plainView(none); !strings.Contains(v, "no saved filters: add them to the config file under savedFilters:") {
		t.Fatalf("f without saved filters says nothing:\n%s", v)
	}
}

func TestInitialQueryAndClick(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{InitialQuery: "env:test"}, 100, 30)
	if got := rowNames(m); len(got) != 2 {
		t.Fatalf("initial query: rows %v", got)
	}
	m.Update(tea.MouseClickMsg{X: 10, Y: 4}) // second row (two title lines, header)
	if m.board.Cursor() != 1 {
		t.Fatalf("click: cursor %d, want 1", m.board.Cursor())
	}
	bad, _ := newTestModel(t, nil, nil, Options{InitialQuery: "sev:purple"}, 100, 30)
	if !bad.status.bad || len(bad.board.AllRows()) != len(fleet()) {
		t.Fatalf("bad initial query: status %+v rows %d", bad.status, len(bad.board.AllRows()))
	}
}

// The spinner ticks only while something is in progress and stops after.
func TestSpinnerOnlyWhileBusy(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 30)
	if m.busy() || m.spinning {
		t.Fatal("idle board is busy")
	}
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnSyncing, Since: t0}})
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if !m.spinning || cmd == nil {
		t.Fatal("syncing cluster: no spinner")
	}
	if !strings.Contains(plainView(m), "prod syncing") {
		t.Fatalf("syncing not shown:\n%s", plainView(m))
	}
	if _, next := m.Update(spinner.TickMsg{ID: m.spin.ID(), Time: time.Now()}); next == nil {
		t.Fatal("busy spinner did not schedule its next tick")
	}
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: t0}})
	m.Update(snapshotMsg{src.Snapshot()})
	if _, next := m.Update(spinner.TickMsg{ID: m.spin.ID(), Time: time.Now()}); next != nil || m.spinning {
		t.Fatal("idle board keeps ticking")
	}
}
