package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/ui/format"
)

func rowNames(m *Model) []string {
	out := make([]string, 0, len(m.board.AllRows()))
	for _, r := range m.board.AllRows() {
		out = append(out, r.App)
	}
	return out
}

func selectApp(t *testing.T, m *Model, name string) {
	t.Helper()
	for i, r := range m.board.AllRows() {
		if r.App == name {
			m.board.MoveTo(i)
			return
		}
	}
	t.Fatalf("app %q not on the board (rows %v)", name, rowNames(m))
}

func TestFilterAppliesLiveAndShowsErrorsInPlace(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(m, "/")
	if !m.filter.Active() {
		t.Fatal("/ did not open the query line")
	}
	typeText(m, "iam")
	if got := rowNames(m); len(got) != 1 || got[0] != "iam" {
		t.Fatalf("rows after typing iam = %v, want [iam]", got)
	}
	press(m, "backspace", "backspace", "backspace")
	typeText(m, "kms")
	good := rowNames(m)
	typeText(m, ":bogus")
	if m.filter.Err() == nil {
		t.Fatal("invalid query: no error")
	}
	if got := rowNames(m); strings.Join(got, ",") != strings.Join(good, ",") || len(good) == 0 {
		t.Fatalf("an invalid query must keep the last good one; rows = %v, want %v", got, good)
	}
	if v := plainView(m); !strings.Contains(v, "✖ ") || !strings.Contains(v, "bogus") {
		t.Fatalf("error not shown in place:\n%s", v)
	}
	press(m, "q") // typing, not quitting
	if !m.filter.Active() || !strings.HasSuffix(m.filter.Typed(), "q") {
		t.Fatalf("q while typing must type; value %q", m.filter.Typed())
	}
	press(m, "esc")
	if m.filter.Active() || m.filter.Text() != "" || len(m.board.AllRows()) != len(fleet()) {
		t.Fatalf("esc must clear: active=%v text=%q rows=%d", m.filter.Active(), m.filter.Text(), len(m.board.AllRows()))
	}
}

func TestFilterEnterKeepsQuery(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(m, "/")
	typeText(m, "sev:red")
	press(m, "enter")
	if m.filter.Active() || m.filter.Text() != "sev:red" {
		t.Fatalf("enter: active=%v text=%q", m.filter.Active(), m.filter.Text())
	}
	for _, r := range m.board.AllRows() {
		if r.Drift.Severity != drift.SeverityRed {
			t.Fatalf("row %s is %s under sev:red", r.App, r.Drift.Severity)
		}
	}
	if !strings.Contains(plainView(m), "filter: /sev:red") {
		t.Fatalf("active filter not shown:\n%s", plainView(m))
	}
	press(m, "esc")
	if m.filter.Text() != "" {
		t.Fatal("esc on the board must clear the filter")
	}
}

func TestSortCycles(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	if m.board.Sort() != query.SortSeverity {
		t.Fatalf("default sort %v", m.board.Sort())
	}
	if first := m.board.AllRows()[0]; first.Drift.Severity != drift.SeverityRed {
		t.Fatalf("severity sort: first row %s is %s", first.App, first.Drift.Severity)
	}
	press(m, "s")
	if m.board.Sort() != query.SortName {
		t.Fatalf("after s: %v", m.board.Sort())
	}
	names := rowNames(m)
	for i := 1; i < len(names); i++ {
		if names[i-1] > names[i] {
			t.Fatalf("not sorted by name: %v", names)
		}
	}
	if !strings.Contains(plainView(m), "sort: name") {
		t.Fatal("sort not shown")
	}
	for range query.SortDriftAge { // the remaining keys after name, back to severity
		press(m, "s")
	}
	if m.board.Sort() != query.SortSeverity {
		t.Fatalf("sort does not cycle back: %v", m.board.Sort())
	}
}

func TestSelectionFollowsTheAppWhenRowsMove(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 30)
	selectApp(t, m, "queue")
	before := m.board.Cursor()
	// iam turns red (floating declared tag) and moves up; queue's index shifts.
	src.upsert(app{ns: "hanzo", name: "iam", declared: "main", running: "main", latest: "v1.4.0", ready: 2, updated: 2}.build(),
		app{ns: "hanzo", name: "aaa", declared: "dev", running: "dev", ready: 2, updated: 2}.build())
	m.Update(snapshotMsg{src.Snapshot()})
	if sel := m.board.Selected(); sel == nil || sel.App != "queue" {
		t.Fatalf("selection moved off queue to %v", sel)
	}
	if m.board.Cursor() == before {
		t.Fatalf("test is vacuous: queue stayed at row %d", before)
	}
	// Filtered out: the cursor stays in place on another app.
	press(m, "d")
	if sel := m.board.Selected(); sel == nil || sel.Verdict().Mark == model.MarkOK {
		t.Fatalf("only-drifted: selected %v", sel)
	}
}

func TestNavigationKeys(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 12)
	var many []model.AppView
	for i := range 50 {
		many = append(many, app{ns: "hanzo-devnet", name: "svc" + string(rune('a'+i/26)) + string(rune('a'+i%26)),
			declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	}
	src.upsert(many...)
	m.Update(snapshotMsg{src.Snapshot()})
	n := len(m.board.AllRows())
	steps := []struct {
		key  string
		want int
	}{{"j", 1}, {"down", 2}, {"k", 1}, {"G", n - 1}, {"g", 0}, {"pgdown", m.board.Height()}, {"pgup", 0}, {"end", n - 1}, {"home", 0}}
	for _, s := range steps {
		press(m, s.key)
		if m.board.Cursor() != s.want {
			t.Fatalf("after %s cursor %d, want %d", s.key, m.board.Cursor(), s.want)
		}
		if m.board.Cursor() < m.board.Offset() || m.board.Cursor() >= m.board.Offset()+m.board.Height() {
			t.Fatalf("after %s cursor %d outside window [%d,+%d)", s.key, m.board.Cursor(), m.board.Offset(), m.board.Height())
		}
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.board.Cursor() != 3 {
		t.Fatalf("wheel down: cursor %d, want 3", m.board.Cursor())
	}
	if v := plainView(m); !strings.Contains(v, "row 4 · 57/57 shown") {
		t.Fatalf("position not shown:\n%s", v)
	}
	if got := strings.Count(plainView(m), "\n") + 1; got != 12 {
		t.Fatalf("frame has %d lines, want exactly the terminal height 12", got)
	}
}

func TestQuickTogglesAndProblemJumps(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(m, "d")
	for _, r := range m.board.AllRows() {
		if r.Verdict().Mark == model.MarkOK {
			t.Fatalf("only drifted shows ok row %s", r.App)
		}
	}
	press(m, "d", "e")
	if m.board.Env() != "main" {
		t.Fatalf("e: env %q", m.board.Env())
	}
	for _, r := range m.board.AllRows() {
		if r.Env != "main" {
			t.Fatalf("env main shows %s (%s)", r.App, r.Env)
		}
	}
	press(m, "e", "e", "e")
	if m.board.Env() != "" {
		t.Fatalf("env does not cycle back to all: %q", m.board.Env())
	}
	press(m, "s") // by name: problems are spread out
	press(m, "g", "n")
	if m.board.Selected().Verdict().Mark == model.MarkOK {
		t.Fatalf("n landed on an ok row %s", m.board.Selected().App)
	}
	first := m.board.Cursor()
	press(m, "n")
	if m.board.Cursor() == first {
		t.Fatal("n did not move to the next problem")
	}
	press(m, "N")
	if m.board.Cursor() != first {
		t.Fatalf("N did not go back: %d want %d", m.board.Cursor(), first)
	}
}

func TestQuitKeys(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q: no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q does not quit")
	}
	m2, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(m2, "/")
	_, cmd = m2.Update(keyMsg("ctrl+c"))
	if cmd == nil {
		t.Fatal("ctrl+c while typing: no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c does not quit while typing")
	}
}

func TestTooSmallAndResize(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 50, 8)
	if v := plainView(m); !strings.Contains(v, "terminal too small (50x8), need 60x10") {
		t.Fatalf("too small:\n%s", v)
	}
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 8}) // narrower than the words: they wrap
	if v := strings.Join(strings.Fields(plainView(m)), " "); !strings.Contains(v, "terminal too small (30x8), need 60x10") {
		t.Fatalf("too small at 30 columns:\n%s", plainView(m))
	}
	for _, l := range strings.Split(plainView(m), "\n") {
		if format.TextWidth(l) > 30 { // the terminal would cut it
			t.Fatalf("a line wider than the terminal: %q", l)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 10})
	v := plainView(m)
	if strings.Contains(v, "too small") || !strings.Contains(v, "DRIFT") {
		t.Fatalf("after resize:\n%s", v)
	}
	for i, l := range strings.Split(v, "\n") {
		if w := format.TextWidth(l); w > 60 {
			t.Fatalf("line %d is %d wide at 60 columns: %q", i, w, l)
		}
	}
}

func TestDetailScrollsAndFollowsLiveUpdates(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 14)
	selectApp(t, m, "kms")
	press(m, "enter")
	_ = plainView(m) // the render measures the content
	press(m, "j", "j")
	if m.detail.Offset() != 2 {
		t.Fatalf("j j: offset %d, want 2", m.detail.Offset())
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.detail.Offset() != 0 {
		t.Fatalf("wheel up: offset %d", m.detail.Offset())
	}
	press(m, "G")
	if m.detail.Offset() == 0 || !strings.Contains(plainView(m), "What you may do") {
		t.Fatalf("G: offset %d\n%s", m.detail.Offset(), plainView(m))
	}
	src.upsert(app{ns: "hanzo", name: "kms", declared: "v2.0.1", running: "v2.0.1", latest: "v2.0.1", ready: 2, updated: 2, assets: 2}.build())
	m.Update(snapshotMsg{src.Snapshot()})
	press(m, "g")
	if v := plainView(m); !strings.Contains(v, "✓ ok") {
		t.Fatalf("detail did not follow the update:\n%s", v)
	}
}

func TestNilSourceShowsAnEmptyBoard(t *testing.T) {
	m := New(nil, nil, Options{Now: fixedNow}).(*Model)
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	m.Update(takeSnapshot(m.fleet)())
	if v := plainView(m); !strings.Contains(v, "no apps yet") || !strings.Contains(v, "not logged in — read only") {
		t.Fatalf("empty board:\n%s", v)
	}
}
