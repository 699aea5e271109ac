package ui

import (
	"strings"
	"testing"
)

func markedNames(m *Model) []string {
	var out []string
	for _, r := range m.marks.rows(m.board.snap) {
		out = append(out, r.App)
	}
	return out
}

// space marks the row and moves on, again unmarks; "*" marks every row the
// filter shows and, when all are marked, clears; the header counts marks;
// a mark survives the filter.
func TestMarksFromTheKeyboard(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	first := m.board.selected().App
	press(m, "space")
	if got := markedNames(m); len(got) != 1 || got[0] != first || m.board.cursor != 1 {
		t.Fatalf("space: marked %v, cursor %d; want [%s] and the cursor on the next row", got, m.board.cursor, first)
	}
	if v := plainView(m); !strings.Contains(v, "1 marked") || !strings.Contains(v, "\n "+markedGlyph) {
		t.Fatalf("header or gutter does not show the mark:\n%s", v)
	}
	press(m, "up", "space")
	if m.marks.count() != 0 {
		t.Fatalf("space again must unmark; marks %v", markedNames(m))
	}
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "*")
	if got := markedNames(m); strings.Join(got, ",") != strings.Join(rowNames(m), ",") || len(got) == 0 {
		t.Fatalf("* marked %v, want the shown rows %v", got, rowNames(m))
	}
	n := m.marks.count()
	press(m, "esc") // the filter goes, the marks stay
	if m.marks.count() != n || !strings.Contains(plainView(m), "marked") {
		t.Fatalf("clearing the filter changed the marks: %d, want %d", m.marks.count(), n)
	}
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "*")
	if m.marks.count() != 0 {
		t.Fatalf("* on all-marked rows must clear; marks %v", markedNames(m))
	}
}
