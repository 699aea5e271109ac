// Package termtext neutralises text from people and systems we do not control
// before it is written to a terminal: control characters, every escape
// sequence (CSI, OSC, DCS, APC, PM, SOS), line breaks inside a value, bidi
// overrides and other invisible format characters are replaced by visible
// escapes such as \x1b and \u202e, so a reader sees that something odd is
// there and the terminal never acts on it.
//
// Escaping the introducer is enough to defuse a whole sequence: what follows
// an escaped ESC is printable text that the terminal only displays.
package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes s safe to show as one line (a table cell, a value after a
// label): every control character, line break and tab included, is escaped.
// Clean input is returned as is, without allocating.
func Sanitize(s string) string {
	i := firstUnsafe(s, false)
	if i < 0 {
		return s
	}
	return escapeFrom(s, i, false)
}

// SanitizeLines is Sanitize for a block whose line breaks are meant (an
// error message of several lines): '\n' is kept, everything else escaped.
func SanitizeLines(s string) string {
	i := firstUnsafe(s, true)
	if i < 0 {
		return s
	}
	return escapeFrom(s, i, true)
}

// IsClean reports whether Sanitize would return s unchanged.
func IsClean(s string) bool { return firstUnsafe(s, false) < 0 }

// unsafeRune reports whether a terminal could act on r or hide it: C0, DEL
// and C1 controls, format characters (bidi overrides and isolates,
// zero-width characters, BOM, tag characters) and the Unicode line and
// paragraph separators.
func unsafeRune(r rune) bool {
	if r < 0xA0 {
		return r < 0x20 || r >= 0x7F
	}
	// Ranges without format characters skip the table look-up (checked
	// against the tables for every rune by a test).
	if r < 0xAD || r > 0xAD && r < 0x600 || r >= 0x2070 && r < 0xFEFF {
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// firstUnsafe is the byte index of the first character to escape, or -1.
func firstUnsafe(s string, keepNewline bool) int {
	i, _ := scanFrom(s, 0, keepNewline, noBase)
	return i
}

// scanFrom is firstUnsafe from byte i, with marks kept since the last base
// before i; it returns the index (or -1) and that count there.
func scanFrom(s string, i int, keepNewline bool, marks int) (int, int) {
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			i++
			marks = 0
			continue
		}
		if c == '\n' && keepNewline {
			i++
			marks = noBase // a line starts with nothing to stack on
			continue
		}
		if c < 0x80 {
			return i, marks
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || unsafeRune(r) || filler(r) {
			return i, marks
		}
		if stacks(r) {
			if marks >= MaxMarks {
				return i, marks
			}
			marks++
		} else {
			marks = 0
		}
		i += n
	}
	return -1, marks
}

const hexDigits = "0123456789abcdef"

// escapeFrom escapes s whose first character to escape is at start.
func escapeFrom(s string, start int, keepNewline bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:start])
	i, marks := start, noBase
	for {
		j, _ := scanFrom(s, i, keepNewline, marks)
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		b.WriteString(s[i:j])
		i = j + writeEscape(&b, s[j:])
		marks = MaxMarks // nothing stacks on an escape
	}
}

// writeEscape writes the first character of s escaped and returns its length.
func writeEscape(b *strings.Builder, s string) int {
	c := s[0]
	if c < 0x80 {
		writeByteEscape(b, c)
		return 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n <= 1 { // not UTF-8: may be an 8-bit C1 control
		writeByteEscape(b, c)
		return 1
	}
	writeRuneEscape(b, r)
	return n
}

func writeByteEscape(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xF])
}

func writeRuneEscape(b *strings.Builder, r rune) {
	digits := 4
	if r > 0xFFFF {
		b.WriteString(`\U`)
		digits = 8
	} else {
		b.WriteString(`\u`)
	}
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xF])
	}
}
