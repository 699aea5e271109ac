// Package yamledit writes a new image tag into the App CR that declares it,
// changing only the bytes of the tag's scalar: the file is parsed for node
// positions and never re-encoded, so comments, key order, quoting, other
// documents, anchors and line endings stay as the author wrote them.
package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// App names the App CR whose tag is written.
type App struct {
	Name, Namespace string
}

func (a App) String() string { return a.Namespace + "/" + a.Name }

// Edit is one tag written into one file: the file's new bytes and the one
// line that changed.
type Edit struct {
	Content       []byte
	Line          int    // 1-based
	Before, After string // the changed line, without its line ending
	From, To      string // the tag as declared before and after
	// Quoted: the tag was in a plain scalar and would not read back as a
	// string there (18, 1.10, yes), so it is written double-quoted.
	Quoted bool
}

// Why is the kind of a refusal.
type Why string

const (
	NotFound   Why = "not found"  // no App document matches
	Several    Why = "several"    // more than one does
	Templated  Why = "templated"  // the value is a template ({{ }}, ${ })
	Anchored   Why = "anchored"   // the value is an alias, or an anchor others use
	Unreadable Why = "unreadable" // not YAML, or a shape with no tag line to change
	BadTag     Why = "bad tag"    // the new tag is not an image tag
)

// Refused is an edit not made, with what was found.
type Refused struct {
	Why    Why
	Reason string
}

func (r *Refused) Error() string { return r.Reason }

func refuse(why Why, format string, args ...any) error {
	return &Refused{Why: why, Reason: fmt.Sprintf(format, args...)}
}

// IsRefused reports whether err is a refusal of kind why.
func IsRefused(err error, why Why) bool {
	var r *Refused
	return errors.As(err, &r) && r.Why == why
}

// SetTag writes tag as the image tag of app's App document in src.
func SetTag(src []byte, app App, tag string) (Edit, error) {
	if !validTag(tag) {
		return Edit{}, refuse(BadTag, "%q is not an image tag (letters, digits, _ . -, at most 128, not starting with . or -)", tag)
	}
	doc, err := find(src, app)
	if err != nil {
		return Edit{}, err
	}
	node, err := tagNode(doc)
	if err != nil {
		return Edit{}, err
	}
	return replace(src, node, tag)
}

// Declares reports whether src holds exactly one App document for app, and
// refuses as SetTag would otherwise (none, several, unreadable).
func Declares(src []byte, app App) error {
	doc, err := find(src, app)
	if err != nil {
		return err
	}
	_, err = tagNode(doc)
	return err
}

// document is one App document of a file.
type document struct {
	root *yaml.Node // the document's mapping
	line int
}

// find is the one App document of src for app; the refusal names the App
// documents it saw instead.
func find(src []byte, app App) (document, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var matches []document
	var others []string
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			break
		}
		if err != nil {
			if bytes.Contains(src, []byte("{{")) {
				return document{}, refuse(Templated, "the file is a template ({{ }}), not YAML: %v", err)
			}
			return document{}, refuse(Unreadable, "not YAML: %v", err)
		}
		if n.Kind != yaml.DocumentNode || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
			continue
		}
		root := n.Content[0]
		kind, api := str(get(root, "kind")), str(get(root, "apiVersion"))
		if kind != "App" || !strings.HasPrefix(api, "hanzo.ai/") {
			continue
		}
		meta := get(root, "metadata")
		name, ns := str(get(meta, "name")), str(get(meta, "namespace"))
		if strings.Contains(name, "{{") || strings.Contains(ns, "{{") {
			return document{}, refuse(Templated, "the App at line %d is templated (metadata %s/%s)", root.Line, ns, name)
		}
		if name == app.Name && ns == app.Namespace {
			matches = append(matches, document{root: root, line: root.Line})
			continue
		}
		if ns == "" {
			ns = "(no namespace)"
		}
		others = append(others, fmt.Sprintf("App %s/%s at line %d", ns, name, root.Line))
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		if len(others) == 0 {
			return document{}, refuse(NotFound, "no App document (kind App, apiVersion hanzo.ai/v1) in the file")
		}
		return document{}, refuse(NotFound, "no App %s in the file; it holds %s", app, strings.Join(others, ", "))
	}
	var lines []string
	for _, m := range matches {
		lines = append(lines, fmt.Sprint(m.line))
	}
	return document{}, refuse(Several, "App %s is declared %d times in the file (lines %s)", app, len(matches), strings.Join(lines, ", "))
}

// tagNode is the scalar of spec.image.tag, refused where writing it would
// change more than this App or where it is not a value written here.
func tagNode(d document) (*yaml.Node, error) {
	spec := d.root
	for _, key := range []string{"spec", "image"} {
		next := get(spec, key)
		switch {
		case next == nil:
			return nil, refuse(Unreadable, "the App at line %d has no %s", d.line, path(key))
		case next.Kind == yaml.AliasNode:
			return nil, refuse(Anchored, "the App's %s at line %d is an alias (*%s): the tag is written elsewhere", path(key), next.Line, next.Value)
		case next.Kind != yaml.MappingNode:
			return nil, refuse(Unreadable, "the App's %s at line %d is not a mapping", path(key), next.Line)
		}
		spec = next
	}
	image := spec
	tag, dup := getAll(image, "tag")
	switch {
	case dup:
		return nil, refuse(Unreadable, "the App's spec.image at line %d has tag twice", image.Line)
	case tag == nil && get(image, "<<") != nil:
		return nil, refuse(Anchored, "the App's spec.image.tag at line %d comes from a merge key (<<): the tag is written elsewhere", image.Line)
	case tag == nil:
		return nil, refuse(Unreadable, "the App's spec.image at line %d declares no tag: there is no line to change", image.Line)
	case tag.Kind == yaml.AliasNode:
		return nil, refuse(Anchored, "the App's spec.image.tag at line %d is an alias (*%s): the tag is written elsewhere", tag.Line, tag.Value)
	case tag.Anchor != "":
		return nil, refuse(Anchored, "the App's spec.image.tag at line %d is the anchor &%s, which other values may use", tag.Line, tag.Anchor)
	case tag.Kind == yaml.MappingNode && len(tag.Content) > 0 && tag.Content[0].Kind == yaml.MappingNode:
		return nil, refuse(Templated, "the App's spec.image.tag at line %d is a template ({{ }}): its value is set elsewhere (Helm values)", tag.Line)
	case tag.Kind != yaml.ScalarNode:
		return nil, refuse(Unreadable, "the App's spec.image.tag at line %d is not a scalar", tag.Line)
	case strings.Contains(tag.Value, "{{") || strings.Contains(tag.Value, "${"):
		return nil, refuse(Templated, "the App's spec.image.tag at line %d is templated (%s): its value is set elsewhere (Helm values, a kustomize patch)", tag.Line, tag.Value)
	case tag.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return nil, refuse(Unreadable, "the App's spec.image.tag at line %d is a block scalar", tag.Line)
	case tag.Value == "" && tag.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0:
		return nil, refuse(Unreadable, "the App's spec.image.tag at line %d is empty: there is no value to change", tag.Line)
	}
	return tag, nil
}

func path(key string) string {
	if key == "spec" {
		return "spec"
	}
	return "spec." + key
}

// get is the value of key in mapping m (nil when m is not a mapping or has
// no such key).
func get(m *yaml.Node, key string) *yaml.Node {
	v, _ := getAll(m, key)
	return v
}

// getAll is get, and whether key is there more than once.
func getAll(m *yaml.Node, key string) (v *yaml.Node, dup bool) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			if v != nil {
				return v, true
			}
			v = m.Content[i+1]
		}
	}
	return v, false
}

func str(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
