package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/ui/board"
)

func markedNames(m *Model) []string {
	var out []string
	for _, r := range m.board.MarkedRows() {
		out = append(out, r.App)
	}
	return out
}

// space marks the row and moves on, again unmarks; "*" marks every row the
// filter shows and, when all are marked, clears; the header counts marks;
// a mark survives the filter.
func TestMarksFromTheKeyboard(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	first := m.board.Selected().App
	press(m, "space")
	if got := markedNames(m); len(got) != 1 || got[0] != first || m.board.Cursor() != 1 {
		t.Fatalf("space: marked %v, cursor %d; want [%s] and the cursor on the next row", got, m.board.Cursor(), first)
	}
	if v := plainView(m); !strings.Contains(v, "1 marked") || !strings.Contains(v, "\n "+board.MarkedGlyph) {
		t.Fatalf("header or gutter does not show the mark:\n%s", v)
	}
	press(m, "up", "space")
	if m.board.MarkCount() != 0 {
		t.Fatalf("space again must unmark; marks %v", markedNames(m))
	}
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "*")
	if got := markedNames(m); strings.Join(got, ",") != strings.Join(rowNames(m), ",") || len(got) == 0 {
		t.Fatalf("* marked %v, want the shown rows %v", got, rowNames(m))
	}
	n := m.board.MarkCount()
	press(m, "esc") // the filter goes, the marks stay
	if m.board.MarkCount() != n || !strings.Contains(plainView(m), "marked") {
		t.Fatalf("clearing the filter changed the marks: %d, want %d", m.board.MarkCount(), n)
	}
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "*")
	if m.board.MarkCount() != 0 {
		t.Fatalf("* on all-marked rows must clear; marks %v", markedNames(m))
	}
}
