package drift

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestRowsShareMessages: two rows with the same tags hold one copy of each
// flag's message (a board keeps thousands of rows).
func TestRowsShareMessages(t *testing.T) {
	o := Observed{DeclaredTag: "v1.2.3", RunningTag: "v1.2.2"}
	a, b := ComputeDriftFlags(o), ComputeDriftFlags(o)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("flags: %v %v", a, b)
	}
	for i := range a {
		if a[i].Message != b[i].Message || unsafe.StringData(a[i].Message) != unsafe.StringData(b[i].Message) {
			t.Errorf("%s: two copies of %q", a[i].Kind, a[i].Message)
		}
	}
}

// TestSharedMessagesStayBounded: a fleet whose tags keep changing never
// grows the table past maxMessages, and rows still share after it starts over.
func TestSharedMessagesStayBounded(t *testing.T) {
	for i := range 3 * maxMessages {
		ComputeDriftFlags(Observed{DeclaredTag: fmt.Sprintf("v1.%d.0", i), RunningTag: "v1.0.0"})
	}
	messages.Lock()
	n := len(messages.m)
	messages.Unlock()
	if n > maxMessages {
		t.Errorf("%d messages kept; at most %d", n, maxMessages)
	}
	TestRowsShareMessages(t)
}
