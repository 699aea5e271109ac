package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"k8s.io/client-go/util/jsonpath"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// outputSpec is a parsed -o: one of the command's own formats, or one of
// kubectl's (name, jsonpath=TEMPLATE, custom-columns=SPEC), compiled before
// anything is read so a bad template is a usage error.
type outputSpec struct {
	format  string // the command's format, "name", "jsonpath" or "custom-columns"
	path    *jsonpath.JSONPath
	columns []column
}

type column struct {
	header string
	path   *jsonpath.JSONPath
}

// parseOutput parses -o; own are the command's formats, said in the error.
func parseOutput(s string, own ...string) (outputSpec, error) {
	kind, arg, templated := strings.Cut(s, "=")
	switch {
	case !templated && (kind == "name" || slices.Contains(own, kind)):
		return outputSpec{format: kind}, nil
	case kind == "jsonpath":
		if arg == "" {
			return outputSpec{}, usageErr("-o jsonpath needs a template, e.g. -o jsonpath='{.apps[*].app}'")
		}
		p := jsonpath.New("output").AllowMissingKeys(true)
		if err := p.Parse(arg); err != nil {
			return outputSpec{}, usageErr("-o jsonpath: %v", err)
		}
		return outputSpec{format: kind, path: p}, nil
	case kind == "custom-columns":
		cols, err := parseColumns(arg)
		if err != nil {
			return outputSpec{}, usageErr("-o custom-columns: %v", err)
		}
		return outputSpec{format: kind, columns: cols}, nil
	}
	return outputSpec{}, usageErr("-o must be %s, not %q; kubectl's name, jsonpath=TEMPLATE and custom-columns=SPEC work too", orList(own), s)
}

func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// parseColumns reads kubectl's custom-columns spec: HEADER:PATH,... where
// PATH is a JSONPath over one row's JSON (-o json's apps[] item).
func parseColumns(spec string) ([]column, error) {
	if spec == "" {
		return nil, fmt.Errorf("no columns; write HEADER:PATH,..., e.g. APP:.app,NS:.namespace")
	}
	var cols []column
	for _, part := range strings.Split(spec, ",") {
		header, path, ok := strings.Cut(part, ":")
		if !ok || header == "" {
			return nil, fmt.Errorf("%q is not HEADER:PATH", part)
		}
		p, err := relaxedPath(header, path)
		if err != nil {
			return nil, err
		}
		cols = append(cols, column{header: header, path: p})
	}
	return cols, nil
}

var relaxed = regexp.MustCompile(`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`)

// relaxedPath compiles kubectl's relaxed JSONPath: .a.b, a.b, {a.b} and
// {.a.b} are all {.a.b}.
func relaxedPath(name, expr string) (*jsonpath.JSONPath, error) {
	m := relaxed.FindStringSubmatch(expr)
	if m == nil {
		return nil, fmt.Errorf("%q is not a path like .drift.severity or {.app}", expr)
	}
	field := m[1]
	if field == "" {
		field = m[2]
	}
	p := jsonpath.New(name).AllowMissingKeys(true)
	if err := p.Parse("{." + field + "}"); err != nil {
		return nil, fmt.Errorf("%q: %v", expr, err)
	}
	return p, nil
}

// generic is v as JSON's generic values, every string made safe for one
// line of a terminal first: a template's own text (its "\n") is printed as
// written, a value from the cluster never forges a line or acts on the
// terminal.
func generic(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return sanitizeValues(out), nil
}

func sanitizeValues(v any) any {
	switch t := v.(type) {
	case string:
		return termtext.Sanitize(t)
	case []any:
		for i := range t {
			t[i] = sanitizeValues(t[i])
		}
	case map[string]any: // keys too: a label's key is the cluster's text
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[termtext.Sanitize(k)] = sanitizeValues(x)
		}
		return out
	}
	return v
}

// writeJSONPath executes the template over doc (the -o json document).
func writeJSONPath(w io.Writer, p *jsonpath.JSONPath, doc any) error {
	data, err := generic(doc)
	if err != nil {
		return err
	}
	return p.Execute(textOut(w), data)
}

// writeNames prints NAMESPACE/APP a line: the form get, logs and restart take.
func writeNames(w io.Writer, rows []*model.AppView) error {
	w = textOut(w)
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "%s/%s\n", termtext.Sanitize(r.Namespace), termtext.Sanitize(r.App)); err != nil {
			return err
		}
	}
	return nil
}

// writeColumns prints kubectl's custom columns, each row's cell the values
// its path finds (joined by ","), <none> when it finds none.
func writeColumns(w io.Writer, cols []column, rows []*model.AppView, headers bool) error {
	tw := tabwriter.NewWriter(textOut(w), 0, 4, 2, ' ', 0)
	if headers {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = oneField(termtext.Sanitize(c.header))
		}
		fmt.Fprintln(tw, strings.Join(names, "\t"))
	}
	for _, r := range rows {
		data, err := generic(r)
		if err != nil {
			return err
		}
		cells := make([]string, len(cols))
		for i, c := range cols {
			if cells[i], err = cell(c.path, data); err != nil {
				return err
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func cell(p *jsonpath.JSONPath, data any) (string, error) {
	found, err := p.FindResults(data)
	if err != nil {
		return "", err
	}
	var vals []string
	for _, set := range found {
		for _, v := range set {
			vals = append(vals, fmt.Sprint(v.Interface()))
		}
	}
	if len(vals) == 0 {
		return "<none>", nil
	}
	return oneField(strings.Join(vals, ",")), nil
}
