package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A set restart with many refusals on 80×24: the box is taller than the
// screen, so its middle is left out with a count, and its prompt (what
// confirms, what cancels) stays on screen.
func TestDialogTallerThanTheScreenKeepsItsPrompt(t *testing.T) {
	refuse := map[string]string{}
	for i := range 20 {
		refuse[fmt.Sprintf("svc-%02d", i)] = "not an admin of this org's namespaces"
	}
	m := setModel(t, &setRestarter{refuse: refuse}, 24)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	keyDrive(m, "*", "R")
	view := plainView(m)
	lines := strings.Split(view, "\n")
	if len(lines) != 24 {
		t.Fatalf("%d lines on a 24-line screen:\n%s", len(lines), view)
	}
	for _, want := range []string{"Restart 25 marked apps?", "more lines: a taller terminal shows them", "enter confirm"} {
		if !strings.Contains(view, want) {
			t.Errorf("missing %q on 80×24:\n%s", want, view)
		}
	}
}
