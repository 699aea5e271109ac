package terminal

import (
	"strings"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// Tidy drops from a sanitised frame (text, '\n' and SGR sequences
// only: guard's output) what changes no cell on screen, because bubbletea's
// renderer parses every byte of each frame whose content changed, and its
// cost per frame follows the bytes it reads:
//
//   - spaces at the end of a line drawn with no style: the renderer clears
//     its cell buffer to exactly such cells before drawing a frame;
//   - a reset while no style is set;
//   - a reset followed at once by the very sequences that set the style it
//     resets (lipgloss closes and reopens the same style between adjacent
//     pieces).
//
// The style is followed literally, as the sequences written since the last
// reset, so nothing here interprets SGR parameters: a line whose style is
// not known to be reset keeps its spaces. Any other escape sequence (the
// guard lets none through) ends the tidying: the rest is kept as it is.
func Tidy(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var pen []string // SGR sequences since the last reset (none: no style)
	spaces := 0      // spaces read but not yet written: dropped if the line ends with no style
	flush := func() {
		writeSpaces(&b, spaces)
		spaces = 0
	}
	nextEsc, nextNL := -1, -1
	for i := 0; i < len(s); {
		if nextEsc < i {
			nextEsc = indexFrom(s, i, 0x1b)
		}
		if nextNL < i {
			nextNL = indexFrom(s, i, '\n')
		}
		if j := min(nextEsc, nextNL); j > i {
			text := s[i:j]
			if t := strings.TrimRight(text, " "); t != "" {
				flush()
				b.WriteString(t)
				spaces = len(text) - len(t)
			} else {
				spaces += len(text)
			}
			i = j
			continue
		}
		if s[i] == '\n' {
			if len(pen) > 0 {
				flush()
			}
			spaces = 0
			b.WriteByte('\n')
			i++
			continue
		}
		n := termtext.SGRLen(s[i:])
		if n == 0 { // not SGR (guard lets none through): the rest as it is
			flush()
			b.WriteString(s[i:])
			return b.String()
		}
		seq := s[i : i+n]
		i += n
		switch {
		case !isReset(seq):
			pen = append(pen, seq)
		case len(pen) == 0:
			continue // nothing to reset
		case repeats(s[i:], pen) > 0:
			i += repeats(s[i:], pen) // reset and set again: the same style
			continue
		default:
			pen = pen[:0]
		}
		flush()
		b.WriteString(seq)
	}
	if len(pen) > 0 {
		flush()
	}
	return b.String()
}

// indexFrom is the index of the first c in s at or after from, or len(s).
func indexFrom(s string, from int, c byte) int {
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return len(s)
}

// repeats is the length of pen's sequences if s starts with all of them in
// order, else 0.
func repeats(s string, pen []string) int {
	n := 0
	for _, seq := range pen {
		if !strings.HasPrefix(s[n:], seq) {
			return 0
		}
		n += len(seq)
	}
	return n
}

// isReset reports whether seq is an SGR that resets every attribute and
// does nothing else.
func isReset(seq string) bool { return seq == "\x1b[m" || seq == "\x1b[0m" }

const blanks = "                                                                "

// writeSpaces writes n spaces to b, a chunk at a time.
func writeSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(blanks))
		b.WriteString(blanks[:k])
		n -= k
	}
}
