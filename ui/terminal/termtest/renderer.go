package ui

import (
	"bytes"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// termScreen drives ultraviolet the way bubbletea v2.1.1's renderer does
// for a full-screen program on a Unix terminal (cursed_renderer.go: reset,
// enterAltScreen, flush): every frame whose content changed is drawn whole
// into a cleared cell buffer and diffed against the screen, and the bytes
// it would send are counted.
type termScreen struct {
	out     bytes.Buffer
	scr     *uv.TerminalRenderer
	cells   uv.ScreenBuffer
	written int    // bytes of the last frame
	keep    bool   // keep them in sent
	sent    string // the last frame's bytes, when keep
}

func newTermScreen(w, h int) *termScreen {
	t := &termScreen{}
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
	t.scr, t.cells = scr, uv.NewScreenBuffer(w, h)
	return t
}

// resize is bubbletea's resize and the flush after it: erase the screen,
// draw the next frame at the new size.
func (t *termScreen) resize(w, h int) {
	t.scr.Erase()
	t.scr.Resize(w, h)
	t.cells.Resize(w, h)
}

// frame is one flush of content: clear, draw, diff, write.
func (t *termScreen) frame(content string) {
	t.cells.Clear()
	uv.NewStyledString(content).Draw(t.cells, t.cells.Bounds())
	t.scr.Render(t.cells.RenderBuffer)
	if err := t.scr.Flush(); err != nil {
		panic(err)
	}
	t.written = t.out.Len()
	if t.keep {
		t.sent = t.out.String()
	}
	t.out.Reset()
}
