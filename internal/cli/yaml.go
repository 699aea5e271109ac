package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// writeYAML encodes v through its JSON form (the same field names and
// values as -o json) so the document is exact and terminal-safe: every
// string holding a character a terminal acts on is double-quoted, where the
// YAML encoder escapes controls and the rest (bidi, format characters) is
// \u-escaped here; any YAML reader gets the exact value back.
func writeYAML(w io.Writer, v any) error {
	j, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode yaml: %w", err)
	}
	var doc yaml.Node // JSON is YAML
	if err := yaml.Unmarshal(escapeBMP(j), &doc); err != nil {
		return fmt.Errorf("encode yaml: %w", err)
	}
	blockStyle(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("encode yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encode yaml: %w", err)
	}
	_, err = w.Write(escapeQuoted(buf.Bytes()))
	return err
}

// blockStyle turns the JSON's flow style into block style; strings stay
// plain only when every YAML reader, 1.1 ones included (where y, no, on,
// 1:20 are not strings), reads them back as the same string.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && !plainSafe(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// yaml11Words are the plain scalars YAML 1.1 reads as booleans or null.
var yaml11Words = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true}

func plainSafe(s string) bool {
	if s == "" || yaml11Words[strings.ToLower(s)] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '/' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// escapeBMP \u-escapes the characters of encoded JSON that a terminal acts
// on and the YAML reader refuses raw (DEL, C1, BOM); astral ones stay, as
// a YAML reader takes no surrogate pairs (escapeQuoted escapes them later).
func escapeBMP(j []byte) []byte {
	if termtext.FirstRaw(string(j), false) < 0 {
		return j
	}
	out := make([]byte, 0, len(j)+32)
	for len(j) > 0 {
		r, n := utf8.DecodeRune(j)
		if r != '\n' && r <= 0xFFFF && !termtext.IsClean(string(j[:n])) {
			out = fmt.Appendf(out, `\u%04X`, r)
		} else {
			out = append(out, j[:n]...)
		}
		j = j[n:]
	}
	return out
}

// escapeQuoted \u-escapes what the encoder leaves raw inside double-quoted
// strings (bidi and other format characters); only such strings hold them.
func escapeQuoted(b []byte) []byte {
	if termtext.FirstRaw(string(b), false) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r >= utf8.RuneSelf && !termtext.IsClean(string(b[:n])) {
			if r > 0xFFFF {
				out = fmt.Appendf(out, `\U%08X`, r)
			} else {
				out = fmt.Appendf(out, `\u%04X`, r)
			}
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}
