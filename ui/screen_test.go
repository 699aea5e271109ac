package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
)

// screenCheck drives a lineScreen and, beside it, ultraviolet as
// bubbletea's renderer drives it (termScreen: each frame drawn whole), each
// into a terminal emulator, and checks after each frame that both emulators
// show the same cells.
type screenCheck struct {
	t          *testing.T
	w, h       int
	ls         *lineScreen
	ref        *termScreen
	emu, refEm *vt.Emulator
}

func newScreenCheck(t *testing.T, w, h int) *screenCheck {
	ls := newLineScreen(w, h, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ref := newTermScreen(w, h)
	ref.keep = true
	return &screenCheck{t: t, w: w, h: h, ls: ls, ref: ref, emu: vt.NewEmulator(w, h), refEm: vt.NewEmulator(w, h)}
}

func (c *screenCheck) frame(step, content string) {
	c.t.Helper()
	if _, err := c.emu.Write(c.ls.frame(content)); err != nil {
		c.t.Fatal(err)
	}
	c.ref.frame(content)
	if _, err := c.refEm.WriteString(c.ref.sent); err != nil {
		c.t.Fatal(err)
	}
	sameCells(c.t, step, c.w, c.refEm, c.emu)
}

func (c *screenCheck) resize(w, h int) {
	c.w, c.h = w, h
	c.ls.resize(w, h)
	c.ref.resize(w, h)
	c.emu.Resize(w, h)
	c.refEm.Resize(w, h)
}

// TestLineScreenShowsEveryFrame: drawing only the rows whose text (or the
// style carried into them) changed leaves the terminal showing each frame
// exactly as the frame written whole would, cell by cell, through every
// frame of the tidy scenes (board, dialogs, filter, help, no colour, a tiny
// terminal), a churn of shown rows, scrolling and resizes.
func TestLineScreenShowsEveryFrame(t *testing.T) {
	for _, sc := range tidyScenes() {
		t.Run(sc.name, func(t *testing.T) {
			m := sc.model(t)
			c := newScreenCheck(t, m.width, m.height)
			c.frame("first frame", m.View().Content)
			for i, k := range sc.keys {
				press(m, k)
				c.frame(fmt.Sprintf("after key %d %q", i, k), m.View().Content)
			}
		})
	}
	t.Run("churn_scroll_resize_200x50", func(t *testing.T) {
		src, rows, m := nameSortedBoardSized(t, 2_000, 200, 50)
		c := newScreenCheck(t, 200, 50)
		c.frame("first frame", m.View().Content)
		for i := range 30 {
			r := rows[(i*7)%45]
			r.DeclaredTag = fmt.Sprintf("v9.%d.0", i)
			src.upsert(r)
			m.Update(snapshotMsg{src.Snapshot()})
			c.frame(fmt.Sprintf("change %d", i), m.View().Content)
		}
		for i, k := range []string{"down", "down", "pgdown", "down", "down", "down", "pgup", "up", "end", "home"} {
			press(m, k)
			c.frame(fmt.Sprintf("after key %d %q", i, k), m.View().Content)
		}
		for i := range 50 { // past the last shown row: the table scrolls a row at a time
			press(m, "down")
			c.frame(fmt.Sprintf("down %d", i), m.View().Content)
		}
		for _, s := range [][2]int{{150, 40}, {200, 50}, {60, 10}, {200, 50}} {
			c.resize(s[0], s[1])
			m.Update(tea.WindowSizeMsg{Width: s[0], Height: s[1]})
			c.frame(fmt.Sprintf("resized to %dx%d", s[0], s[1]), m.View().Content)
		}
	})
}

// TestLineScreenCarriesStyleAndFallsBack: a style left set at the end of a
// line still colours the next one (a row whose text is the same is drawn
// again when the style carried into it changes); a frame with a sequence
// other than SGR is drawn whole; rows a shorter frame no longer covers are
// cleared.
func TestLineScreenCarriesStyleAndFallsBack(t *testing.T) {
	const (
		red   = "\x1b[31m"
		green = "\x1b[32m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	c := newScreenCheck(t, 20, 6)
	for i, f := range []string{
		red + "ab\ncd" + reset + "\nef",
		green + "ab\ncd" + reset + "\nef",
		green + "ab" + reset + "\ncd\nef",
		bold + "x" + reset + red + "ab\n" + bold + "cd\nef" + reset,
		red + bold + "x" + reset + "ab\ncd\nef",
		"a \x1b]8;;https://example.com\x07link\nstill a link\x1b]8;;\x07\nc\nd\ne\nf", // the link carries over
		"a \x1b]8;;https://example.com\x07link\x1b]8;;\x07\nb\nc\nd\ne\nf",
		"one\ntwo\nthree\nfour\nfive\nsix",
		"one\ntwo",
		"",
		red + "only a style\n\n" + reset + "x",
	} {
		c.frame(fmt.Sprintf("frame %d %q", i, f), f)
	}
}

// TestLineScreenFollowsTheColourProfile: colours are written as the
// terminal's profile allows, and a change of profile repaints the screen in
// the new one.
func TestLineScreenFollowsTheColourProfile(t *testing.T) {
	const frame = "\x1b[38;2;255;107;107mred\x1b[m\nplain"
	ls := newLineScreen(20, 3, []string{"TERM=xterm-256color"}, colorprofile.ANSI256)
	if got := string(ls.frame(frame)); !strings.Contains(got, "red") || strings.Contains(got, "38;2;") {
		t.Fatalf("256 colours: a 24-bit colour was written, or no text: %q", got)
	}
	ls.setProfile(colorprofile.TrueColor)
	if got := string(ls.frame(frame)); !strings.Contains(got, "38;2;255;107;107") || !strings.Contains(got, "red") {
		t.Fatalf("true colour: the row was not repainted in 24-bit colour: %q", got)
	}
}

func TestCarry(t *testing.T) {
	const (
		red   = "\x1b[31m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	cases := []struct {
		pen, line, want string
		ok              bool
	}{
		{"", "plain", "", true},
		{red, "plain", red, true},
		{red, "a" + reset + "b", "", true},
		{"", red + "a" + reset + "b" + bold + "c", bold, true},
		{red, bold + "a", red + bold, true},
		{red, "a\x1b[0mb" + bold + "c" + red, bold + red, true},
		{"", "a\x1b]8;;x\x07b", "", false},
	}
	for _, c := range cases {
		got, ok := carry(c.pen, c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("carry(%q, %q) = %q, %v; want %q, %v", c.pen, c.line, got, ok, c.want, c.ok)
		}
	}
}

// BenchmarkLineScreenFrame is BenchmarkTerminalFrame's churn frames drawn by
// the lineScreen the board runs with on a terminal.
func BenchmarkLineScreenFrame(b *testing.B) {
	frames := churnFrames(b, 256)
	ls := newLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.frame(frames[len(frames)-1])
	written := 0
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		written += len(ls.frame(frames[i%len(frames)]))
		i++
	}
	cpu.report()
	b.ReportMetric(float64(written)/float64(b.N), "bytes/frame")
}

// BenchmarkLineScreenChurnFrame is a churn frame as the board draws one
// for a change to a shown row: that row, the summary's figures and the
// status line change (3 rows, no scroll).
func BenchmarkLineScreenChurnFrame(b *testing.B) {
	frames := churnFrames(b, 256)
	for i, f := range frames {
		lines := strings.Split(f, "\n")
		lines[1] = fmt.Sprintf("%-*s", len(lines[1]), fmt.Sprintf(" %d apps, %d drifted", 10_000, i))
		lines[len(lines)-2] = fmt.Sprintf("%-*s", len(lines[len(lines)-2]), fmt.Sprintf(" updated %d", i))
		frames[i] = strings.Join(lines, "\n")
	}
	ls := newLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.frame(frames[len(frames)-1])
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		ls.frame(frames[i%len(frames)])
		i++
	}
	cpu.report()
}

// TestLineScreenStillScrolls: a frame that moves the table a row keeps
// writing a scroll, not every row again (scroll optimisation is looked for
// only when many rows changed, and a scroll changes nearly all of them).
func TestLineScreenStillScrolls(t *testing.T) {
	_, _, m := nameSortedBoardSized(t, 2_000, 200, 50)
	ls := newLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.frame(m.View().Content)
	for range 60 { // past the last shown row: the table scrolls a row at a time
		press(m, "down")
		ls.frame(m.View().Content)
	}
	press(m, "down")
	n := len(ls.frame(m.View().Content))
	if n > 2_000 { // a scroll writes ~400
		t.Fatalf("scrolling the table a row wrote %d bytes: every row again, not a scroll", n)
	}
}
