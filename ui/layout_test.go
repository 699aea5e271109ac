package ui

import (
	"fmt"
	"testing"
)

// View only draws: the layout (help line, detail lines and scroll bounds)
// is computed in Update, so drawing twice changes no state.
func TestViewChangesNothing(t *testing.T) {
	m, _ := newTestModel(t, allowed(), orgAdmin(), Options{}, 100, 12)
	selectApp(t, m, "explorer")
	press(m, "enter", "end")
	if m.detail.Lines() == 0 || m.helpLine.text == "" {
		t.Fatalf("Update did not lay the frame out: %d detail lines, help line %q", m.detail.Lines(), m.helpLine.text)
	}
	before := fmt.Sprintf("%+v %+v %+v", m.detail, m.helpLine, m.board)
	first := m.View().Content
	if after := fmt.Sprintf("%+v %+v %+v", m.detail, m.helpLine, m.board); after != before {
		t.Errorf("View changed the model:\nbefore %s\nafter  %s", before, after)
	}
	if second := m.View().Content; second != first {
		t.Error("two Views of one state differ")
	}
}
