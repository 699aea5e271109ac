package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/ui/styles"
)

func TestHelpScreen(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	press(m, "?")
	if m.screen != screenHelp || !strings.Contains(plainView(m), "FD floating-declared") {
		t.Fatalf("? does not show full help:\n%s", plainView(m))
	}
	press(m, "esc")
	if m.screen != screenBoard {
		t.Fatal("esc does not leave help")
	}
}

// On an 80x24 terminal help is taller than the screen: it says so on its
// last row and scrolls (keys and wheel) down to the query language and the
// way back, and opens at its top again.
func TestHelpScrollsWhereItDoesNotFit(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 80, 24)
	press(m, "?")
	v := plainView(m)
	if !strings.Contains(v, "↑/↓ scroll") || strings.Contains(v, "to go back") {
		t.Fatalf("help taller than the screen does not say it scrolls:\n%s", v)
	}
	if n := strings.Count(v, "\n") + 1; n != 24 {
		t.Fatalf("help drew %d rows on a 24-row terminal", n)
	}
	press(m, "G")
	v = plainView(m)
	for _, want := range []string{"Query", "app:iam", "Git", "q, esc or ? to go back"} {
		if !strings.Contains(v, want) {
			t.Errorf("G: help's end lacks %q:\n%s", want, v)
		}
	}
	press(m, "j") // past the end: stays
	if plainView(m) != v {
		t.Errorf("j past the end moved help:\n%s", plainView(m))
	}
	press(m, "g")
	if !strings.Contains(plainView(m), "driftboard — keys") {
		t.Errorf("g: not at the top:\n%s", plainView(m))
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.helpTop != 3 {
		t.Errorf("wheel down: top %d, want 3", m.helpTop)
	}
	press(m, "esc", "?")
	if m.helpTop != 0 || m.screen != screenHelp {
		t.Errorf("help opened again at line %d, screen %v", m.helpTop, m.screen)
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 50}) // it all fits: no scroll line
	if v := plainView(m); strings.Contains(v, "↑/↓ scroll") || !strings.Contains(v, "to go back") {
		t.Errorf("help that fits shows a scroll line:\n%s", v)
	}
}

// The legend names every mark a row can show: each severity (? n/a for rows
// waiting on their workload too), the rollout and health words, the gutter.
func TestHelpLegendListsEveryMark(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 160, 80)
	press(m, "?")
	v := strings.Join(strings.Fields(plainView(m)), " ") // wrapped lines read on
	want := []string{"↻", "stuck", "paused", "pending", "unreadable", "no workload", "syncing", "offline", "? unknown", "• marked", "› the selected row"}
	for mark := model.MarkOK; mark <= model.MarkRed; mark++ {
		want = append(want, styles.MarkLabel(mark))
	}
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("the help's legend lacks %q:\n%s", w, v)
		}
	}
}

// Every flag and git word the board can show is read out in the legend,
// taken from the same tables the cells and the query parser use.
func TestHelpLegendReadsTheWordTables(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 160, 80)
	press(m, "?")
	v := strings.Join(strings.Fields(plainView(m)), " ")
	var want []string
	for _, w := range model.FlagWords {
		want = append(want, w.Board+" "+w.Name)
	}
	for _, w := range model.GitStateWords {
		want = append(want, w.Board+" ")
	}
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("the help's legend lacks %q:\n%s", w, v)
		}
	}
}

// The Query entry of help names every value each closed key takes and the
// Sort entry every order s goes through, read from the tables the query
// parser reads: a value added there is in help at once.
func TestHelpQueryLineReadsTheWordTables(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 160, 80)
	press(m, "?")
	// wrapped lines read on; a list of values breaks after a comma
	v := strings.ReplaceAll(strings.Join(strings.Fields(plainView(m)), " "), ", ", ",")
	var envs []string
	for _, e := range model.Envs {
		envs = append(envs, string(e))
	}
	var sorts []string
	for _, w := range query.SortWords {
		sorts = append(sorts, w.Board)
	}
	want := []string{
		"sev:" + strings.Join(model.MarkWords.Names(), ","),
		"health:" + strings.Join(model.HealthWords.Names(), ","),
		"flag:" + strings.Join(model.FlagWords.Names(), ","),
		"git:" + strings.Join(model.GitStateWords.Names(), ","),
		"env:" + strings.Join(envs, ","),
		strings.Join(sorts, " → "),
	}
	for _, key := range []string{"rollout", "release", "has"} {
		if len(query.KeyValues(key)) == 0 {
			t.Fatalf("query.KeyValues(%q) is empty", key)
		}
		want = append(want, key+":"+strings.Join(query.KeyValues(key), ","))
	}
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("the help's legend lacks %q:\n%s", w, v)
		}
	}
}
