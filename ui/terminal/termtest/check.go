package termtest

import (
	"fmt"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// Screen is a renderer under test: it returns the bytes that bring the
// terminal to each frame.
type Screen interface {
	Frame(content string) []byte
	Resize(w, h int)
}

// Check drives a Screen and, beside it, the reference Renderer (each frame
// drawn whole), each into a terminal emulator, and checks after each frame
// that both emulators show the same cells.
type Check struct {
	t          testing.TB
	w, h       int
	s          Screen
	ref        *Renderer
	emu, refEm *vt.Emulator
}

// NewCheck checks s, a w×h screen.
func NewCheck(t testing.TB, w, h int, s Screen) *Check {
	ref := NewRenderer(w, h)
	ref.Keep = true
	return &Check{t: t, w: w, h: h, s: s, ref: ref, emu: vt.NewEmulator(w, h), refEm: vt.NewEmulator(w, h)}
}

// Frame draws content on both and compares them; step names it in a failure.
func (c *Check) Frame(step, content string) {
	c.t.Helper()
	if _, err := c.emu.Write(c.s.Frame(content)); err != nil {
		c.t.Fatal(err)
	}
	c.ref.Frame(content)
	if _, err := c.refEm.WriteString(c.ref.Sent); err != nil {
		c.t.Fatal(err)
	}
	SameCells(c.t, step, c.w, c.refEm, c.emu)
}

// Resize resizes both terminals.
func (c *Check) Resize(w, h int) {
	c.w, c.h = w, h
	c.s.Resize(w, h)
	c.ref.Resize(w, h)
	c.emu.Resize(w, h)
	c.refEm.Resize(w, h)
}

// Emulate writes content to a w×h terminal emulator as a terminal receives a
// frame (the tty turns '\n' into CR LF).
func Emulate(w, h int, content string) *vt.Emulator {
	e := vt.NewEmulator(w, h)
	if _, err := e.WriteString(strings.ReplaceAll(content, "\n", "\r\n")); err != nil {
		panic(err)
	}
	return e
}

// CellScreen is what a terminal emulator and ultraviolet's buffer both
// offer: cells by position.
type CellScreen interface {
	CellAt(x, y int) *uv.Cell
	Height() int
}

// SameCells fails t unless a and b show the same cells in their first w
// columns.
func SameCells(t testing.TB, what string, w int, a, b CellScreen) {
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
