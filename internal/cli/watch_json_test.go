package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// watchJSONDocs runs `watch -o json` (kubectl's -w -o json) until it has
// printed n documents, then stops it, and returns the documents as printed.
func watchJSONDocs(t *testing.T, e *cliEnv, n int, args ...string) []json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan result, 1)
	go func() {
		var errb strings.Builder
		code := Run(ctx, append([]string{"watch", "-o", "json"}, args...), Streams{
			In: strings.NewReader(""), Out: pw, Err: &errb,
			Getenv: func(k string) string { return e.vars[k] },
		})
		pw.Close()
		done <- result{code: code, err: errb.String()}
	}()
	dec := json.NewDecoder(pr)
	var docs []json.RawMessage
	for len(docs) < n {
		var doc json.RawMessage
		if err := dec.Decode(&doc); err != nil {
			cancel()
			go io.Copy(io.Discard, pr)
			t.Fatalf("watch -o json: document %d: %v\n%s", len(docs)+1, err, (<-done).err)
		}
		docs = append(docs, doc)
	}
	cancel()
	go io.Copy(io.Discard, pr) // whatever it writes before it stops
	if r := <-done; r.code != ExitOK {
		t.Errorf("watch -o json exited %d after cancel:\n%s", r.code, r.err)
	}
	return docs
}

// checkWatchJSON holds `watch -o json` to what its help says: the events
// -o jsonl prints (want: their kinds, in order), each an indented document.
func checkWatchJSON(t *testing.T, e *cliEnv, want []string, args ...string) {
	t.Helper()
	for i, doc := range watchJSONDocs(t, e, len(want), args...) {
		var ev streamEvent
		if err := json.Unmarshal(doc, &ev); err != nil || string(ev.Event.Event) != want[i] {
			t.Errorf("watch -o json: document %d is not a %s event (%v):\n%s", i+1, want[i], err, doc)
		}
		if !bytes.Contains(doc, []byte("\n  \"event\": ")) {
			t.Errorf("watch -o json: document %d is not indented:\n%s", i+1, doc)
		}
	}
}
