package termtext

import (
	"io"
	"sync"
	"unicode/utf8"
)

// Writer escapes everything written through it except '\n' and '\t', the
// guard on a text stream (stderr, a table on stdout) behind the per-value
// Sanitize calls. A character split across two writes is held back until
// it is whole.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the start of a UTF-8 sequence cut by the last write
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it; it reports len(p) when the escaped text was
// written whole.
func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := p
	if len(t.pending) > 0 {
		buf = append(t.pending, p...)
		t.pending = nil
	}
	// Hold back an incomplete UTF-8 sequence at the end.
	if cut := incompleteTail(buf); cut > 0 {
		t.pending = append([]byte(nil), buf[len(buf)-cut:]...)
		buf = buf[:len(buf)-cut]
	}
	out := escapeStream(string(buf))
	if _, err := io.WriteString(t.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// escapeStream keeps '\t' and '\n' and escapes the rest like SanitizeLines.
func escapeStream(s string) string {
	i := firstUnsafe(s, true)
	for i >= 0 && s[i] == '\t' {
		j := firstUnsafe(s[i+1:], true)
		if j < 0 {
			return s
		}
		i += 1 + j
	}
	if i < 0 {
		return s
	}
	out := make([]byte, 0, len(s)+16)
	for len(s) > 0 {
		k := 0
		for k < len(s) && s[k] != '\t' {
			k++
		}
		out = append(out, SanitizeLines(s[:k])...)
		if k < len(s) {
			out = append(out, '\t')
			k++
		}
		s = s[k:]
	}
	return string(out)
}

// incompleteTail is how many bytes at the end of b start a UTF-8 sequence
// that the next write may complete (0 when b ends on a whole character).
func incompleteTail(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
