package drift

import (
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
