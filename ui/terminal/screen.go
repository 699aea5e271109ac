package terminal

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// LineScreen draws the board's frames on a full-screen terminal in place of
// bubbletea's renderer. That renderer (v2.1.1) clears its cell buffer, parses
// every frame whose text changed whole and diffs all its lines: ~0.8 ms at
// 200×50 for one changed row. Here only the rows whose text changed are
// parsed into a cell buffer kept between frames, and ultraviolet's terminal
// renderer (the one bubbletea drives) diffs and writes those rows alone.
//
// A row's text is kept with the style it starts in (a style set on one line
// holds on the next until reset), so a row is drawn again when either
// changes. A frame holding any escape sequence other than SGR (the guard
// lets none through) is drawn whole, as bubbletea would.
type LineScreen struct {
	out   bytes.Buffer
	scr   *uv.TerminalRenderer
	cells uv.ScreenBuffer
	drawn []string // each row as drawn: the style carried into it, then its text
	known bool     // drawn tells what the cells hold (false: draw every row)
}

// NewLineScreen is a w×h screen for a terminal with env, writing colours as
// profile allows; its first frame draws every row.
func NewLineScreen(w, h int, env []string, profile colorprofile.Profile) *LineScreen {
	s := &LineScreen{cells: uv.NewScreenBuffer(w, h)}
	s.scr = uv.NewTerminalRenderer(&s.out, env)
	s.scr.SetColorProfile(profile)
	s.scr.SetTabStops(-1)
	s.scr.SetMapNewline(false) // the tty is raw: '\n' moves down only
	s.scr.Resize(w, h)
	s.scr.SetFullscreen(true) // the alternate screen, addressed absolutely
	s.scr.SetRelativeCursor(false)
	s.scr.Erase()
	s.drawn = make([]string, h)
	return s
}

// Resize follows the terminal's new size: the next frame repaints it all.
func (s *LineScreen) Resize(w, h int) {
	s.cells.Resize(w, h)
	s.scr.Resize(w, h)
	s.scr.Erase()
	s.drawn = make([]string, h)
	s.known = false
}

// SetProfile converts colours for profile from the next frame on, which
// repaints every row.
func (s *LineScreen) SetProfile(p colorprofile.Profile) {
	s.scr.SetColorProfile(p)
	s.scr.Erase()
	s.known = false
}

// Frame draws content and returns the bytes that bring the terminal to it
// (valid until the next call).
func (s *LineScreen) Frame(content string) []byte {
	s.out.Reset()
	w, h := s.cells.Width(), s.cells.Height()
	if w <= 0 || h <= 0 {
		return nil
	}
	if !s.known {
		s.cells.Clear()
		clear(s.drawn)
	}
	pen, rest, more := "", content, true
	changed := 0
	for y := range h {
		line := ""
		switch {
		case !more:
			pen = "" // a row past the frame's last line: nothing is drawn on it
		default:
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				line, rest = rest[:i], rest[i+1:]
			} else {
				line, rest, more = rest, "", false
			}
		}
		row := line
		if pen != "" {
			row = pen + line
		}
		if !s.known || row != s.drawn[y] {
			uv.NewStyledString(row).Draw(&s.cells, uv.Rect(0, y, w, 1))
			s.drawn[y] = row
			changed++
		}
		var ok bool
		if pen, ok = carry(pen, line); !ok {
			return s.whole(content)
		}
	}
	s.known = true
	s.scr.SetScrollOptim(changed >= scrollRows(h))
	return s.flush()
}

// scrollRows is how many of h rows must change before a frame looks for
// rows that moved together (a scroll): looking hashes every cell of both
// screens (~0.1 ms at 200×50, more with cold caches), and a churn frame
// changes a shown row, the summary and the status line, while a scroll
// moves nearly every row. Looking for 3 rows, side by side on 10,000 Apps
// at 20 App patches a second, cost 5–8 % of the board's CPU.
func scrollRows(h int) int { return max(3, h/4) }

// whole draws content as bubbletea's renderer does: every cell anew.
func (s *LineScreen) whole(content string) []byte {
	s.scr.SetScrollOptim(true)
	s.cells.Clear()
	uv.NewStyledString(content).Draw(&s.cells, s.cells.Bounds())
	s.known = false
	return s.flush()
}

func (s *LineScreen) flush() []byte {
	s.scr.Render(s.cells.RenderBuffer)
	_ = s.scr.Flush() // into s.out, which cannot fail
	return s.out.Bytes()
}

// carry is the style set at the end of line when pen was set at its start:
// the SGR sequences written since the last reset, literally (as Tidy
// follows it). ok is false when line holds any other escape sequence.
func carry(pen, line string) (_ string, ok bool) {
	after := -1 // where the SGRs after the line's last reset start
	styled := false
	for i := strings.IndexByte(line, 0x1b); i >= 0; {
		n := termtext.SGRLen(line[i:])
		if n == 0 {
			return pen, false
		}
		if isReset(line[i : i+n]) {
			after, styled = i+n, false
		} else {
			styled = true
		}
		j := strings.IndexByte(line[i+n:], 0x1b)
		if j < 0 {
			break
		}
		i += n + j
	}
	switch {
	case !styled && after >= 0:
		return "", true
	case !styled:
		return pen, true
	case after >= 0:
		pen = ""
	default:
		after = 0
	}
	var b strings.Builder
	b.WriteString(pen)
	for i := after; ; {
		k := strings.IndexByte(line[i:], 0x1b)
		if k < 0 {
			return b.String(), true
		}
		i += k
		n := termtext.SGRLen(line[i:])
		b.WriteString(line[i : i+n])
		i += n
	}
}
