package termtext

import "strings"

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
	marks := noBase
	for len(s) > 0 {
		i, m := scanFrom(s, 0, true, marks)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		if n := SGRLen(s); n > 0 { // invisible: marks after it stack on what came before
			b.WriteString(s[:n])
			s, marks = s[n:], m
			continue
		}
		s = s[writeEscape(&b, s):]
		marks = MaxMarks
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
	at, marks := 0, noBase
	for {
		i, m := scanFrom(s, at, true, marks)
		if i < 0 {
			return -1
		}
		n := 0
		if keepSGR {
			n = SGRLen(s[i:])
		}
		if n == 0 {
			return i
		}
		at, marks = i+n, m
	}
}
