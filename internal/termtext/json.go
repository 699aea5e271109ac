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
	i := firstUnsafe(string(b), true)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf && c != 0x7F {
			out = append(out, c) // the encoder already escaped C0 in strings
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if c == 0x7F || n > 1 && unsafeRune(r) {
			out = appendJSONEscape(out, r)
		} else {
			out = append(out, b[i:i+n]...) // encoding/json writes only valid UTF-8
		}
		i += n
	}
	return out
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
