package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
)

// Error is a config problem at a place in a file.
type Error struct {
	File   string
	Line   int
	Column int
	Field  string // dotted path, e.g. releases.interval; "" for syntax errors
	Msg    string
}

// Errors are every problem found in one file, in file order. Error() is
// one line each, as errors.Join's.
type Errors []*Error

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, x := range e {
		lines[i] = x.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find the first *Error.
func (e Errors) Unwrap() []error {
	out := make([]error, len(e))
	for i, x := range e {
		out[i] = x
	}
	return out
}

// asError is nil without problems, the one *Error, or all of them sorted.
func asError(errs []*Error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return Errors(errs)
}

func (e *Error) Error() string {
	where := fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	if e.Field == "" {
		return fmt.Sprintf("config %s: %s", where, e.Msg)
	}
	return fmt.Sprintf("config %s: field %q: %s", where, e.Field, e.Msg)
}

var typeOfConfig = reflect.TypeFor[Config]()

// parseNodes parses data into a yaml.v3 node tree, which keeps positions.
func parseNodes(file string, data []byte) (*yamlv3.Node, error) {
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(data, &doc); err != nil {
		line := 1
		msg := err.Error()
		// yaml.v3 says "yaml: line N: what"; lift N into the position.
		if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
			if n, tail, ok := strings.Cut(rest, ": "); ok {
				if _, scanErr := fmt.Sscanf(n, "%d", &line); scanErr == nil {
					msg = tail
				}
			}
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		return nil, &Error{File: file, Line: line, Column: 1, Msg: "invalid YAML: " + msg}
	}
	if doc.Kind == yamlv3.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return nil, nil // empty file
}

// checkShape walks the node tree beside the Go type, so that unknown fields
// and values of the wrong kind are reported with their line: every one, the
// walk going on past each (not into a value of the wrong kind).
func checkShape(file string, n *yamlv3.Node, t reflect.Type) []*Error {
	if n == nil {
		return nil
	}
	w := shapeWalker{file: file, errs: new([]*Error)}
	w.walk(n, t, "")
	return *w.errs
}

type shapeWalker struct {
	file string
	errs *[]*Error
}

func (w shapeWalker) fail(n *yamlv3.Node, field, format string, args ...any) {
	*w.errs = append(*w.errs, &Error{File: w.file, Line: n.Line, Column: n.Column, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func isNull(n *yamlv3.Node) bool {
	return n.Kind == yamlv3.ScalarNode && n.Tag == "!!null"
}

func (w shapeWalker) walk(n *yamlv3.Node, t reflect.Type, path string) {
	if n.Kind == yamlv3.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if isNull(n) {
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yamlv3.MappingNode {
			w.fail(n, path, "must be a mapping of fields, not %s", describe(n))
			return
		}
		w.walkStruct(n, t, path)
	case reflect.Map:
		if n.Kind != yamlv3.MappingNode {
			w.fail(n, path, "must be a mapping, not %s", describe(n))
			return
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := join(path, k.Value)
			switch {
			case k.Kind != yamlv3.ScalarNode || k.Value == "":
				w.fail(k, sub, "keys must be non-empty names")
			case seen[k.Value]:
				w.fail(k, sub, "defined twice")
			default:
				seen[k.Value] = true
				w.walk(v, t.Elem(), sub)
			}
		}
	case reflect.Slice:
		if n.Kind != yamlv3.SequenceNode {
			w.fail(n, path, "must be a list, not %s", describe(n))
			return
		}
		for i, item := range n.Content {
			w.walk(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Bool:
		if n.Kind != yamlv3.ScalarNode || n.Tag != "!!bool" {
			w.fail(n, path, "must be true or false, not %s", describe(n))
		}
	case reflect.Int:
		if n.Kind != yamlv3.ScalarNode || n.Tag != "!!int" {
			w.fail(n, path, "must be a whole number, not %s", describe(n))
		}
	case reflect.String:
		if n.Kind != yamlv3.ScalarNode {
			w.fail(n, path, "must be a single value, not %s", describe(n))
		}
	}
}

func (w shapeWalker) walkStruct(n *yamlv3.Node, t reflect.Type, path string) {
	fields := jsonFields(t)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub := join(path, k.Value)
		f, ok := fields[k.Value]
		if !ok {
			names := make([]string, 0, len(fields))
			for name := range fields {
				names = append(names, name)
			}
			slices.Sort(names)
			w.fail(k, sub, "unknown field (known fields here: %s)", strings.Join(names, ", "))
			continue
		}
		if seen[k.Value] {
			w.fail(k, sub, "defined twice")
			continue
		}
		seen[k.Value] = true
		w.walk(v, f.Type, sub)
	}
}

// jsonFields maps a struct's JSON field names to its fields.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

func describe(n *yamlv3.Node) string {
	switch n.Kind {
	case yamlv3.MappingNode:
		return "a mapping"
	case yamlv3.SequenceNode:
		return "a list"
	case yamlv3.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "this value"
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// find returns the value node at a dotted path of mapping keys (map keys
// included), or nil.
func find(root *yamlv3.Node, path ...string) *yamlv3.Node {
	n := root
	for _, name := range path {
		if n == nil || n.Kind != yamlv3.MappingNode {
			return nil
		}
		var next *yamlv3.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}
