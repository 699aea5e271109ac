package wire

import (
	"io"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// A stray byte where a watch event should start is named as it is, so the
// printers' one escape spells it (\x07 on stderr), never Go's %q (\a).
func TestFramerNamesAStrayByteAsItIs(t *testing.T) {
	t.Parallel()
	fr := jsonFramer{}.NewFrameReader(io.NopCloser(strings.NewReader("\a{}")))
	_, err := fr.Read(make([]byte, 64))
	if err == nil {
		t.Fatal("a stream starting with BEL was framed")
	}
	if got := termtext.SanitizeLines(err.Error()); got != `watch stream: '\x07' where an event should start` {
		t.Fatalf("printed as %q", got)
	}
}
