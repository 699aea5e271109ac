package board

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// The marks of a set restart: space marks the selected row and goes on,
// "*" marks every row shown and then clears them, the gutter shows each
// mark, and a row that leaves the fleet loses its mark.
func TestMarksShownAndKept(t *testing.T) {
	s := store.New()
	for _, app := range []string{"api", "db", "web"} {
		s.Upsert(model.AppView{Cluster: "c", Namespace: "ns", App: app, DeclaredTag: "v1", RunningTag: "v1"})
	}
	b := New(keymap.New())
	b.SetHeight(5, 3)
	b.SetSnapshot(s.Snapshot())
	first := b.Selected()
	if !b.ToggleMark() || b.MarkCount() != 1 || b.Selected() == first {
		t.Fatalf("space: %d marked, cursor still on %s", b.MarkCount(), first.App)
	}
	st := styles.New(true, true)
	var sb strings.Builder
	b.Render(&sb, &st, 80, 6, Decor{})
	lines := strings.Split(ansi.Strip(sb.String()), "\n")
	if !strings.HasPrefix(lines[1], " "+MarkedGlyph) || !strings.HasPrefix(lines[2], "› ") {
		t.Fatalf("the marked row and the cursor:\n%s", strings.Join(lines, "\n"))
	}
	if got := b.MarkAllShown(); got != "3 shown rows marked (3 in all)" || len(b.MarkedRows()) != 3 {
		t.Fatalf("*: %q, %d marked", got, len(b.MarkedRows()))
	}
	s.Delete(first.Key())
	b.SetSnapshot(s.Snapshot())
	if b.MarkCount() != 2 {
		t.Fatalf("a row that left kept its mark: %d marked", b.MarkCount())
	}
	if got := b.MarkAllShown(); got != "marks cleared" || b.MarkCount() != 0 {
		t.Fatalf("* on all marked: %q, %d marked", got, b.MarkCount())
	}
}
