package podlogs

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model/logbuf"
)

// feedLines splits a stream into lines: CRLF trimmed, a last line without
// newline kept, and one endless line cut at maxLogLine (the rest read and
// dropped) so it cannot exhaust memory.
func TestFeedLinesCutsLongLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100<<10)
	in := "first\r\n" + long + "\nafter\nno newline"
	feed := logbuf.NewFeed(10)
	if err := feedLines(context.Background(), strings.NewReader(in), feed); err != nil {
		t.Fatal(err)
	}
	got := feed.Take().Lines
	if len(got) != 4 || got[0] != "first" || got[2] != "after" || got[3] != "no newline" {
		t.Fatalf("lines %d: %q…", len(got), got[0])
	}
	if want := strings.Repeat("x", maxLogLine) + " …(line cut)"; got[1] != want {
		t.Errorf("long line: %d bytes, want %d (cut and marked)", len(got[1]), len(want))
	}
}

// A stream that never sends a newline: the board's feed gets the line's
// first maxLogLine bytes, marked cut, at once, not when (if ever) it ends.
func TestFeedLinesCutsALineThatNeverEnds(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	feed := logbuf.NewFeed(10)
	done := make(chan error, 1)
	go func() { done <- feedLines(context.Background(), pr, feed) }()
	go func() { _, _ = pw.Write([]byte("first\n" + strings.Repeat("x", 100<<10))) }()
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < 2 {
		select {
		case <-feed.Ready():
			got = append(got, feed.Take().Lines...)
		case <-deadline:
			t.Fatalf("lines so far %d: the endless line never showed", len(got))
		}
	}
	if want := strings.Repeat("x", maxLogLine) + lineCut; got[0] != "first" || got[1] != want {
		t.Errorf("got %d lines, the second %d bytes", len(got), len(got[1]))
	}
	_, _ = pw.Write([]byte(strings.Repeat("y", 1<<20) + "\nnext\n"))
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if b := feed.Take(); len(b.Lines) != 1 || b.Lines[0] != "next" {
		t.Errorf("after the cut line's end: %q", b.Lines)
	}
}
