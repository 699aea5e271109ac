package termtext

import (
	"strings"
	"unicode/utf8"
)

// SanitizeStyled is the last guard over a whole frame the program composed
// itself: line breaks and SGR sequences (colours and attributes: ESC [ digits
// ; : m) are kept, every other control or sequence is escaped. Values must
// still go through Sanitize before they are styled, since a tenant's SGR
// would pass here.
func SanitizeStyled(s string) string {
	if styledClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		i := firstUnsafe(s, true)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		if n := SGRLen(s); n > 0 {
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		_, n := utf8.DecodeRuneInString(s) // 1 for a byte that is not UTF-8
		b.WriteString(SanitizeLines(s[:n]))
		s = s[n:]
	}
	return b.String()
}

func styledClean(s string) bool { return FirstRaw(s, true) < 0 }

// SGRLen is the length of the SGR sequence (ESC [ digits ; : m) s starts
// with, or 0.
func SGRLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// FirstRaw is the byte index of the first character in s that a terminal
// would act on or hide, other than '\n' and, when keepSGR, SGR sequences;
// -1 when there is none. Tests of every output path use it.
func FirstRaw(s string, keepSGR bool) int {
	at := 0
	for {
		i := firstUnsafe(s[at:], true)
		if i < 0 {
			return -1
		}
		n := 0
		if keepSGR {
			n = SGRLen(s[at+i:])
		}
		if n == 0 {
			return at + i
		}
		at += i + n
	}
}
