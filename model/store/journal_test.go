package store

import (
	"fmt"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// TestJournalTrimForgetsOldVersions: once the journal drops old changes, a
// reader from before them is told to re-read every row.
func TestJournalTrimForgetsOldVersions(t *testing.T) {
	st := NewTrimming(1)
	for i := range 20 {
		st.Upsert(model.AppView{Cluster: "c", Namespace: "ns", App: fmt.Sprintf("a%d", i%3)})
	}
	snap := st.Snapshot()
	if snap.journalFrom == 0 {
		t.Fatal("20 changes to 3 rows with a floor of 1 should have trimmed the journal")
	}
	if _, ok := snap.ChangesSince(snap.store, 0); ok {
		t.Fatal("changes since version 0 are no longer all known, yet the snapshot offers them")
	}
	got, ok := snap.ChangesSince(snap.store, snap.journalFrom)
	if !ok || len(got) == 0 || got[len(got)-1].Version != snap.Version {
		t.Fatalf("changes since %d: %v, %v", snap.journalFrom, got, ok)
	}
	if _, ok := snap.ChangesSince(snap.store+1, snap.Version); ok {
		t.Fatal("another store's version must not be read as this one's")
	}
}
