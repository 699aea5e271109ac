package query

import "strings"

// Quote writes name as one query value that matches exactly that name
// (as the language matches: case aside): glob characters escaped, quoted
// when it holds a space. ok is false where the language cannot say it: a
// comma (it separates values), a double quote, a value with spaces at its
// ends (trimmed), or nothing at all.
func Quote(name string) (value string, ok bool) {
	if name == "" || strings.ContainsAny(name, `,"`) || strings.TrimSpace(name) != name {
		return "", false
	}
	var b strings.Builder
	for _, c := range name {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	value = b.String()
	if strings.ContainsAny(value, " \t") {
		value = `"` + value + `"`
	}
	return value, true
}
