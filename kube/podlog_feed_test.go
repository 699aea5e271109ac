package kube

import (
	"context"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// feedLines splits a stream into lines: CRLF trimmed, a last line without
// newline kept, and one endless line cut at maxLogLine (the rest read and
// dropped) so it cannot exhaust memory.
func TestFeedLinesCutsLongLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100<<10)
	in := "first\r\n" + long + "\nafter\nno newline"
	feed := model.NewLogFeed(10)
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
