package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
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

// TestTidyFrameKeepsEveryCell: what tidyFrame drops from a frame changes
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
			before, after := newTermScreen(w, h), newTermScreen(w, h)
			before.keep, after.keep = true, true
			check := func(step string) {
				t.Helper()
				m.frame.valid = false
				raw := m.guard(m.render())
				tidy := m.View().Content
				if tidy != tidyFrame(raw) {
					t.Fatalf("%s: View is not the tidied frame", step)
				}
				saved += len(raw) - len(tidy)
				sameCells(t, step+" (vt)", w, emulate(w, h, raw), emulate(w, h, tidy))
				before.frame(raw)
				after.frame(tidy)
				sameCells(t, step+" (renderer)", w, before.cells, after.cells)
				if before.sent != after.sent {
					t.Fatalf("%s: the renderer sends different bytes:\nbefore %q\nafter  %q", step, before.sent, after.sent)
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
		t.Fatal("tidyFrame dropped nothing from any frame")
	}
}

// emulate writes content to a w×h terminal emulator as a terminal receives a
// frame (the tty turns '\n' into CR LF).
func emulate(w, h int, content string) *vt.Emulator {
	e := vt.NewEmulator(w, h)
	if _, err := e.WriteString(strings.ReplaceAll(content, "\n", "\r\n")); err != nil {
		panic(err)
	}
	return e
}

// cellScreen is what a terminal emulator and ultraviolet's buffer both
// offer: cells by position.
type cellScreen interface {
	CellAt(x, y int) *uv.Cell
	Height() int
}

func sameCells(t *testing.T, what string, w int, a, b cellScreen) {
	t.Helper()
	for y := range a.Height() {
		for x := range w {
			ca, cb := a.CellAt(x, y), b.CellAt(x, y)
			switch {
			case ca == nil && cb == nil:
			case ca == nil || cb == nil || !ca.Equal(cb):
				t.Fatalf("%s: cell (%d,%d) differs: %s vs %s", what, x, y, cellText(ca), cellText(cb))
			}
		}
	}
}

func cellText(c *uv.Cell) string {
	if c == nil {
		return "no cell"
	}
	return fmt.Sprintf("%q width %d style %q link %q", c.Content, c.Width, c.Style.String(), c.Link.URL)
}

func TestTidyFrame(t *testing.T) {
	const (
		red   = "\x1b[31m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	cases := []struct{ name, in, want string }{
		{"spaces with no style end a line", "ab   \ncd  ", "ab\ncd"},
		{"spaces after a reset end a line", red + "ab" + reset + "   \n", red + "ab" + reset + "\n"},
		{"styled spaces stay", red + "ab   \n" + reset, red + "ab   \n" + reset},
		{"styled spaces before a reset stay", red + "ab   " + reset + "  ", red + "ab   " + reset},
		{"the style carries over a line break", red + "\n  ", red + "\n  "},
		{"inner spaces stay", "a   b  ", "a   b"},
		{"a reset with no style goes", reset + "a" + "\x1b[0m" + reset + "b", "ab"},
		{"a reset and the same style again go", red + bold + "a" + reset + red + bold + " b" + reset, red + bold + "a b" + reset},
		{"a reset and another style stay", red + "a" + reset + bold + "b" + reset, red + "a" + reset + bold + "b" + reset},
		{"a reset and part of the style stay", red + bold + "a" + reset + red + "b", red + bold + "a" + reset + red + "b"},
		{"spaces kept under a style the reset did not end", red + "a  " + reset + red + "b", red + "a  b"},
		{"any other sequence ends the tidying", "a \x1b]8;;x\x07 b  ", "a \x1b]8;;x\x07 b  "},
	}
	for _, c := range cases {
		if got := tidyFrame(c.in); got != c.want {
			t.Errorf("%s: tidyFrame(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}
