package termtext

import (
	"unicode/utf8"
)

// JSONSafe rewrites encoded JSON so a terminal cannot act on it while every
// value stays exact: the characters encoding/json leaves raw (DEL, C1
// controls, format and bidi characters) become \u escapes, which a JSON
// reader decodes back to the same text. Outside strings JSON is ASCII, so
// every such character is inside a string.
func JSONSafe(b []byte) []byte {
	s := string(b)
	i, _ := scanFrom(s, 0, true, noBase)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	at, marks := 0, noBase
	for i >= 0 {
		out = append(out, s[at:i]...)
		c := s[i]
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c < utf8.RuneSelf && c != 0x7F, n <= 1 && c >= utf8.RuneSelf:
			out = append(out, c) // the encoder already escaped C0 in strings and writes only UTF-8
			n, marks = 1, 0
		default:
			out = appendJSONEscape(out, r) // DEL, controls, format characters, fillers, marks beyond the bound
			marks = MaxMarks
		}
		at = i + n
		i, _ = scanFrom(s, at, true, marks)
	}
	return append(out, s[at:]...)
}

func appendJSONEscape(out []byte, r rune) []byte {
	if r > 0xFFFF { // a surrogate pair
		r -= 0x10000
		out = appendU(out, 0xD800+(r>>10))
		return appendU(out, 0xDC00+(r&0x3FF))
	}
	return appendU(out, r)
}

func appendU(out []byte, r rune) []byte {
	return append(out, '\\', 'u', hexDigits[(r>>12)&0xF], hexDigits[(r>>8)&0xF], hexDigits[(r>>4)&0xF], hexDigits[r&0xF])
}
