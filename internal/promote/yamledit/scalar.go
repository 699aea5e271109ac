package yamledit

import (
	"bytes"
	"regexp"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// tagPattern is the distribution grammar's tag.
var tagPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

func validTag(t string) bool { return tagPattern.MatchString(t) }

// replace swaps the bytes of scalar n for tag, in n's own quoting style.
func replace(src []byte, n *yaml.Node, tag string) (Edit, error) {
	start, end, ok := lineBounds(src, n.Line)
	if !ok {
		return Edit{}, refuse(Unreadable, "line %d of the tag is not in the file", n.Line)
	}
	line := src[start:end]
	col, ok := byteColumn(line, n.Column)
	if !ok {
		return Edit{}, refuse(Unreadable, "column %d of line %d is not in the file", n.Column, n.Line)
	}
	rawLen, ok := scalarLen(line[col:], n)
	if !ok {
		return Edit{}, refuse(Unreadable, "the tag at line %d does not read as one scalar on its line", n.Line)
	}
	e := Edit{Line: n.Line, From: n.Value, To: tag}
	var repl string
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		repl = `"` + tag + `"`
	case n.Style&yaml.SingleQuotedStyle != 0:
		repl = "'" + tag + "'"
	case readsAsString(tag):
		repl = tag
	default:
		repl, e.Quoted = `"`+tag+`"`, true
	}
	var out bytes.Buffer
	out.Grow(len(src) + len(repl))
	out.Write(src[:start+col])
	out.WriteString(repl)
	out.Write(src[start+col+rawLen:])
	e.Content = out.Bytes()
	e.Before = string(bytes.TrimSuffix(line, []byte("\r")))
	newEnd := end - rawLen + len(repl)
	e.After = string(bytes.TrimSuffix(e.Content[start:newEnd], []byte("\r")))
	return e, nil
}

// lineBounds is the byte range of 1-based line n, without its "\n".
func lineBounds(src []byte, n int) (start, end int, ok bool) {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src[start:], '\n')
		if j < 0 {
			return 0, 0, false
		}
		start += j + 1
	}
	end = len(src)
	if j := bytes.IndexByte(src[start:], '\n'); j >= 0 {
		end = start + j
	}
	return start, end, true
}

// byteColumn turns the parser's 1-based column (in characters) into a byte
// offset in line.
func byteColumn(line []byte, col int) (int, bool) {
	off := 0
	if col == 1 && bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		off = 3 // the parser does not count a byte order mark
	}
	for i := 1; i < col; i++ {
		if off >= len(line) {
			return 0, false
		}
		_, size := utf8.DecodeRune(line[off:])
		off += size
	}
	return off, true
}

// scalarLen is the length in bytes of the scalar n written at the start of
// rest, checked against the value the parser read.
func scalarLen(rest []byte, n *yaml.Node) (int, bool) {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		if len(rest) == 0 || rest[0] != '"' {
			return 0, false
		}
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return i + 1, true
			}
		}
		return 0, false
	case n.Style&yaml.SingleQuotedStyle != 0:
		if len(rest) == 0 || rest[0] != '\'' {
			return 0, false
		}
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, true
			}
		}
		return 0, false
	}
	v := []byte(n.Value)
	if !bytes.HasPrefix(rest, v) {
		return 0, false
	}
	if after := rest[len(v):]; len(after) > 0 && !bytes.ContainsAny(after[:1], " \t\r,]}#") {
		return 0, false // a plain scalar that goes on (over lines, say)
	}
	return len(v), true
}

// yaml11Words are the words YAML 1.1 (kubectl's and CD's YAML, through
// sigs.k8s.io/yaml) reads as booleans or null, where YAML 1.2 reads strings.
var yaml11Words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true, "~": true,
}

// yaml11Number is what YAML 1.1 reads as a number and 1.2 may not (1_000,
// 0b1, 017).
var yaml11Number = regexp.MustCompile(`^[-+]?([0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+|0b[01_]+|0x[0-9a-fA-F_]+|\.(inf|Inf|INF|nan|NaN|NAN))$`)

// readsAsString reports whether tag, written plain, is read back as a
// string by both YAML 1.2 and YAML 1.1.
func readsAsString(tag string) bool {
	if yaml11Words[tag] || yaml11Number.MatchString(tag) {
		return false
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("t: "+tag), &n); err != nil || len(n.Content) == 0 {
		return false
	}
	v := get(n.Content[0], "t")
	return v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && v.Value == tag
}
