package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/terminal"
	"github.com/hanzoai/driftboard/ui/terminal/termtest"
)

// tidyScene is a board the tests build, and the keys pressed on it one at a
// time; every frame on the way is checked.
type tidyScene struct {
	name  string
	model func(t *testing.T) *Model
	keys  []string
}

func tidyScenes() []tidyScene {
	var out []tidyScene
	walk := []string{"down", "space", "down", "space", "/", "i", "a", "enter", "esc", "r", "esc", "enter", "esc", "?", "esc"}
	for _, w := range []int{60, 100, 160} {
		for _, dark := range []bool{true, false} {
			out = append(out, tidyScene{
				name:  fmt.Sprintf("board_w%d_dark=%v", w, dark),
				model: func(t *testing.T) *Model { return goldenModel(t, w, dark, Options{}) },
				keys:  walk,
			})
		}
	}
	out = append(out,
		tidyScene{"no_colour_w100", func(t *testing.T) *Model { return goldenModel(t, 100, true, Options{NoColor: true}) }, walk},
		tidyScene{"read_only_w100", func(t *testing.T) *Model { return goldenModel(t, 100, true, Options{ReadOnly: true}) }, []string{"r"}},
		tidyScene{"tiny_terminal", func(t *testing.T) *Model {
			m := goldenModel(t, 100, true, Options{})
			m.Update(tea.WindowSizeMsg{Width: 40, Height: 8})
			return m
		}, nil},
		tidyScene{"name_sorted_200x50", func(t *testing.T) *Model {
			_, _, m := nameSortedBoardSized(t, 2_000, 200, 50)
			return m
		}, []string{"down", "space", "pgdown", "space", "/", "s", "v", "c", "esc"}},
	)
	return out
}

// TestTidyFrameKeepsEveryCell: what terminal.Tidy drops from a frame changes
// nothing a terminal shows. Each frame of each scene is drawn before and
// after tidying by a terminal emulator (x/vt, its own parser) and by
// ultraviolet as bubbletea's renderer draws it, cell by cell (text, width,
// style, link); and the bytes bubbletea's renderer sends for the scene's
// frames in turn are the same.
func TestTidyFrameKeepsEveryCell(t *testing.T) {
	saved := 0
	for _, sc := range tidyScenes() {
		t.Run(sc.name, func(t *testing.T) {
			m := sc.model(t)
			w, h := m.width, m.height
			before, after := termtest.NewRenderer(w, h), termtest.NewRenderer(w, h)
			before.Keep, after.Keep = true, true
			check := func(step string) {
				t.Helper()
				m.frame.valid = false
				raw := m.guard(m.render())
				tidy := m.View().Content
				if tidy != terminal.Tidy(raw) {
					t.Fatalf("%s: View is not the tidied frame", step)
				}
				saved += len(raw) - len(tidy)
				termtest.SameCells(t, step+" (vt)", w, termtest.Emulate(w, h, raw), termtest.Emulate(w, h, tidy))
				before.Frame(raw)
				after.Frame(tidy)
				termtest.SameCells(t, step+" (renderer)", w, before.Cells, after.Cells)
				if before.Sent != after.Sent {
					t.Fatalf("%s: the renderer sends different bytes:\nbefore %q\nafter  %q", step, before.Sent, after.Sent)
				}
			}
			check("first frame")
			for i, k := range sc.keys {
				press(m, k)
				check(fmt.Sprintf("after key %d %q", i, k))
			}
		})
	}
	if saved == 0 {
		t.Fatal("Tidy dropped nothing from any frame")
	}
}
