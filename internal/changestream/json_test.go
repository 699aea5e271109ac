package changestream

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// -o json is kubectl's -w -o json: a stream of indented documents, each the
// very object -o jsonl writes on one line.
func TestJSONStreamIsTheJSONLObjectsIndented(t *testing.T) {
	t.Parallel()
	live := map[string]model.ConnPhase{"a": model.ConnLive}
	tr := NewTracker(query.Query{}, false)
	evs := tr.Observe(snap(1, live, row("a", "hanzo", "iam", "v1", "v1", drift.SeverityOK)), t0)
	evs = append(evs, tr.Observe(snap(2, live, row("a", "hanzo", "iam", "v2\x1b[2J\u009b", "v1", drift.SeverityYellow, drift.DriftUnrolled)), t0)...)
	if len(evs) != 3 {
		t.Fatalf("want current, summary and changed, got %v", brief(evs))
	}
	var lines, docs bytes.Buffer
	for _, ev := range evs {
		if err := WriteJSON(&lines, ev); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSONIndented(&docs, ev); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(lines.String(), "\n"); n != len(evs) {
		t.Fatalf("jsonl: want %d lines, got %d:\n%s", len(evs), n, lines.String())
	}
	if !strings.Contains(docs.String(), "\n  \"event\": \"changed\",\n") {
		t.Fatalf("json is not indented:\n%s", docs.String())
	}
	if strings.ContainsAny(docs.String(), "\x1b\u009b") {
		t.Fatalf("json carries raw control characters:\n%q", docs.String())
	}
	if d := cmp.Diff(decodeAll(t, &lines), decodeAll(t, &docs)); d != "" {
		t.Fatalf("json and jsonl objects differ (-jsonl +json):\n%s", d)
	}
}

func decodeAll(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	dec := json.NewDecoder(r)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
}
