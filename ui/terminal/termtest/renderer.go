// Package termtest holds what the renderer's tests and the board's share:
// bubbletea's own renderer as a reference, and cell-by-cell comparison of
// what terminals show.
package termtest

import (
	"bytes"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// Renderer drives ultraviolet the way bubbletea v2.1.1's renderer does
// for a full-screen program on a Unix terminal (cursed_renderer.go: reset,
// enterAltScreen, flush): every frame whose content changed is drawn whole
// into a cleared cell buffer and diffed against the screen, and the bytes
// it would send are counted.
type Renderer struct {
	out     bytes.Buffer
	scr     *uv.TerminalRenderer
	Cells   uv.ScreenBuffer
	Written int    // bytes of the last frame
	Keep    bool   // keep them in Sent
	Sent    string // the last frame's bytes, when Keep
}

// NewRenderer is bubbletea's renderer on a w×h true-colour terminal.
func NewRenderer(w, h int) *Renderer {
	t := &Renderer{}
	scr := uv.NewTerminalRenderer(&t.out, []string{"TERM=xterm-256color"})
	scr.SetColorProfile(colorprofile.TrueColor)
	scr.SetRelativeCursor(true)
	scr.SetFullscreen(false)
	scr.SetTabStops(w) // a tty with TAB0: hard tabs on
	scr.SetBackspace(true)
	scr.SetMapNewline(false)
	scr.SetScrollOptim(true)
	scr.Resize(w, h)
	// enterAltScreen
	scr.SaveCursor()
	scr.SetFullscreen(true)
	scr.SetRelativeCursor(false)
	scr.Erase()
	t.scr, t.Cells = scr, uv.NewScreenBuffer(w, h)
	return t
}

// Resize is bubbletea's resize and the flush after it: erase the screen,
// draw the next frame at the new size.
func (t *Renderer) Resize(w, h int) {
	t.scr.Erase()
	t.scr.Resize(w, h)
	t.Cells.Resize(w, h)
}

// Frame is one flush of content: clear, draw, diff, write.
func (t *Renderer) Frame(content string) {
	t.Cells.Clear()
	uv.NewStyledString(content).Draw(t.Cells, t.Cells.Bounds())
	t.scr.Render(t.Cells.RenderBuffer)
	if err := t.scr.Flush(); err != nil {
		panic(err)
	}
	t.Written = t.out.Len()
	if t.Keep {
		t.Sent = t.out.String()
	}
	t.out.Reset()
}
