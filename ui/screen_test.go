package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/hanzoai/driftboard/ui/terminal"
	"github.com/hanzoai/driftboard/ui/terminal/termtest"
)

// TestLineScreenShowsEveryFrame: drawing only the rows whose text (or the
// style carried into them) changed leaves the terminal showing each frame
// exactly as the frame written whole would, cell by cell, through every
// frame of the tidy scenes (board, dialogs, filter, help, no colour, a tiny
// terminal), a churn of shown rows, scrolling and resizes.
func TestLineScreenShowsEveryFrame(t *testing.T) {
	for _, sc := range tidyScenes() {
		t.Run(sc.name, func(t *testing.T) {
			m := sc.model(t)
			c := termtest.NewCheck(t, m.width, m.height, terminal.NewLineScreen(m.width, m.height, []string{"TERM=xterm-256color"}, colorprofile.TrueColor))
			c.Frame("first frame", m.View().Content)
			for i, k := range sc.keys {
				press(m, k)
				c.Frame(fmt.Sprintf("after key %d %q", i, k), m.View().Content)
			}
		})
	}
	t.Run("churn_scroll_resize_200x50", func(t *testing.T) {
		src, rows, m := nameSortedBoardSized(t, 2_000, 200, 50)
		c := termtest.NewCheck(t, 200, 50, terminal.NewLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor))
		c.Frame("first frame", m.View().Content)
		for i := range 30 {
			r := rows[(i*7)%45]
			r.DeclaredTag = fmt.Sprintf("v9.%d.0", i)
			src.upsert(r)
			m.Update(snapshotMsg{src.Snapshot()})
			c.Frame(fmt.Sprintf("change %d", i), m.View().Content)
		}
		for i, k := range []string{"down", "down", "pgdown", "down", "down", "down", "pgup", "up", "end", "home"} {
			press(m, k)
			c.Frame(fmt.Sprintf("after key %d %q", i, k), m.View().Content)
		}
		for i := range 50 { // past the last shown row: the table scrolls a row at a time
			press(m, "down")
			c.Frame(fmt.Sprintf("down %d", i), m.View().Content)
		}
		for _, s := range [][2]int{{150, 40}, {200, 50}, {60, 10}, {200, 50}} {
			c.Resize(s[0], s[1])
			m.Update(tea.WindowSizeMsg{Width: s[0], Height: s[1]})
			c.Frame(fmt.Sprintf("resized to %dx%d", s[0], s[1]), m.View().Content)
		}
	})
}

// BenchmarkLineScreenFrame is BenchmarkTerminalFrame's churn frames drawn by
// the terminal.LineScreen the board runs with on a terminal.
func BenchmarkLineScreenFrame(b *testing.B) {
	frames := churnFrames(b, 256)
	ls := terminal.NewLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.Frame(frames[len(frames)-1])
	written := 0
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		written += len(ls.Frame(frames[i%len(frames)]))
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
	ls := terminal.NewLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.Frame(frames[len(frames)-1])
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		ls.Frame(frames[i%len(frames)])
		i++
	}
	cpu.report()
}

// TestLineScreenStillScrolls: a frame that moves the table a row keeps
// writing a scroll, not every row again (scroll optimisation is looked for
// only when many rows changed, and a scroll changes nearly all of them).
func TestLineScreenStillScrolls(t *testing.T) {
	_, _, m := nameSortedBoardSized(t, 2_000, 200, 50)
	ls := terminal.NewLineScreen(200, 50, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	ls.Frame(m.View().Content)
	for range 60 { // past the last shown row: the table scrolls a row at a time
		press(m, "down")
		ls.Frame(m.View().Content)
	}
	press(m, "down")
	n := len(ls.Frame(m.View().Content))
	if n > 2_000 { // a scroll writes ~400
		t.Fatalf("scrolling the table a row wrote %d bytes: every row again, not a scroll", n)
	}
}
