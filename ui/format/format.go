// Package format writes the board's text: table cells and lines fitted to
// a width (sanitised, truncated with an Ellipsis, padded), boxes overlaid on
// a screen, ages and clock times.
package format

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// Ellipsis ends a truncated text.
const Ellipsis = "…"

// isASCII reports printable ASCII only: a control byte is never one column.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7F {
			return false
		}
	}
	return true
}

// Safe is text from outside (App fields, cluster and server answers) made
// fit for the terminal: controls and invisible characters shown as escapes.
func Safe(s string) string { return termtext.Sanitize(s) }

// TextWidth is the display width of plain (unstyled) text as writeCell
// shows it.
func TextWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(Safe(s))
}

// WriteCell writes plain text s, sanitised, truncated (with …) or padded to
// exactly w columns: every table cell passes here. ASCII text, the common
// case, takes a path without width tables.
func WriteCell(b *strings.Builder, s string, w int) {
	if w <= 0 {
		return
	}
	s = Safe(s)
	sw := TextWidth(s)
	if sw > w {
		if isASCII(s) {
			b.WriteString(s[:w-1])
			b.WriteString(Ellipsis)
			return
		}
		s = ansi.Truncate(s, w, Ellipsis)
		sw = ansi.StringWidth(s)
	}
	b.WriteString(s)
	WriteSpaces(b, w-sw)
}

const spaces = "                                                                                "

// WriteSpaces writes n spaces to b, a chunk at a time.
func WriteSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

// FitLine truncates a styled line to w columns and pads it to exactly w.
func FitLine(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, Ellipsis)
	}
	return s + strings.Repeat(" ", w-sw)
}

// OneLine is outside text (an error, a reason) on one line, sanitised.
func OneLine(s string) string { return Safe(strings.Join(strings.Fields(s), " ")) }

// Wrap wraps a styled line to width (at least 10 columns).
func Wrap(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, max(10, width), ""), "\n")
}

// ShortDuration renders d the way kubectl's AGE column does ("45s",
// "5m30s", "72m", "3h5m", "20h", "3d5h"), with apimachinery's own function
// so the two never disagree. (ui imports this one pure apimachinery
// utility; nothing of client-go.)
func ShortDuration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	return duration.HumanDuration(d)
}

// Clock renders t as a wall-clock time, with the date when not today.
func Clock(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	t = t.In(now.Location())
	y1, m1, d1 := t.Date()
	y2, m2, d2 := now.Date()
	if y1 == y2 && m1 == m2 && d1 == d2 {
		return t.Format("15:04:05")
	}
	return t.Format("Jan 2 15:04")
}

// OrDash is s, or "-" when empty.
func OrDash[S ~string](s S) string {
	if s == "" {
		return "-"
	}
	return string(s)
}

// reset ends any style around an overlaid box (SGR 0).
const reset = "\x1b[m"

// Overlay draws box centred over base (both multi-line, base exactly w×h).
func Overlay(base []string, box string, w int) []string {
	lines := strings.Split(box, "\n")
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw, w)
	lines = cutMiddle(lines, len(base), bw)
	x := max(0, (w-bw)/2)
	y := max(0, (len(base)-len(lines))/2)
	out := append([]string(nil), base...)
	for i, l := range lines {
		if y+i >= len(out) {
			break
		}
		row := out[y+i]
		left := ansi.Truncate(row, x, "")
		left += strings.Repeat(" ", max(0, x-ansi.StringWidth(left)))
		l = FitLine(l, bw)
		right := ansi.TruncateLeft(row, x+bw, "")
		out[y+i] = left + reset + l + reset + right
	}
	return out
}

// cutMiddle fits a box taller than the screen by leaving out lines from its
// middle and saying how many: its title and its prompt (the keys that
// confirm or close it) are at its ends and stay on screen.
func cutMiddle(lines []string, h, w int) []string {
	if len(lines) <= h || h < 3 {
		return lines
	}
	top := (h - 1) / 2
	bottom := h - 1 - top
	hidden := len(lines) - top - bottom
	note := FitLine(fmt.Sprintf("  ⋮ %d more lines: a taller terminal shows them", hidden), w)
	out := append(lines[:top:top], note)
	return append(out, lines[len(lines)-bottom:]...)
}
