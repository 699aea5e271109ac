package kube

import (
	"fmt"
	"testing"

	"github.com/hanzoai/driftboard/drift"
)

// TestRowsShareMessages: two rows with the same tags hold one copy of each
// flag's message once shared (a board keeps thousands of rows).
func TestRowsShareMessages(t *testing.T) {
	var table messageTable
	o := drift.Observed{DeclaredTag: "v1.2.3", RunningTag: "v1.2.2"}
	a, b := drift.ComputeDriftFlags(o), drift.ComputeDriftFlags(o)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("flags: %v %v", a, b)
	}
	table.share(a)
	table.share(b)
	for i := range a {
		if a[i].Message != b[i].Message || !sameBytes(a[i].Message, b[i].Message) {
			t.Errorf("%s: two copies of %q", a[i].Kind, a[i].Message)
		}
	}
}

// TestSharedMessagesStayBounded: a fleet whose tags keep changing never
// grows the table past maxMessages, and rows still share after it starts over.
func TestSharedMessagesStayBounded(t *testing.T) {
	var table messageTable
	for i := range 3 * maxMessages {
		table.share(drift.ComputeDriftFlags(drift.Observed{DeclaredTag: fmt.Sprintf("v1.%d.0", i), RunningTag: "v1.0.0"}))
		if n := len(table.m); n > maxMessages {
			t.Fatalf("%d messages kept; at most %d", n, maxMessages)
		}
	}
	o := drift.Observed{DeclaredTag: "v9.0.0", RunningTag: "v8.0.0"}
	a, b := drift.ComputeDriftFlags(o), drift.ComputeDriftFlags(o)
	table.share(a)
	table.share(b)
	if !sameBytes(a[0].Message, b[0].Message) {
		t.Errorf("no sharing after the table started over: %q", a[0].Message)
	}
}

// TestFleetRowsShareMessages: rows the fleet builds share their messages
// (the table is wired into the build, not only correct on its own).
func TestFleetRowsShareMessages(t *testing.T) {
	f, keys := benchFleet(t, 14) // tags v1.2.0…v1.2.6 twice, each still running v1.2.9
	f.markDirtyKeys(keys)
	snap := f.Snapshot()
	a, b := snap.Find(keys[1]), snap.Find(keys[8])
	if a == nil || b == nil || a.DeclaredTag != b.DeclaredTag || len(a.Drift.Flags) == 0 {
		t.Fatalf("rows: %+v / %+v", a, b)
	}
	for i, fl := range a.Drift.Flags {
		if !sameBytes(fl.Message, b.Drift.Flags[i].Message) {
			t.Errorf("%s: two copies of %q", fl.Kind, fl.Message)
		}
	}
}
