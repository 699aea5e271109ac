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

// plainStyles are one theme for every frame of a test, as the board keeps
// them: its row cache holds while they do.
var plainStyles = styles.New(true, true)

func renderPlain(b *View, width int) []string {
	var sb strings.Builder
	b.Render(&sb, &plainStyles, width, 5, Decor{})
	return strings.Split(ansi.Strip(sb.String()), "\n")
}

// from is line from rune column col on.
func from(line string, col int) string { return string([]rune(line)[col:]) }

func runeIndex(line, sub string) int {
	i := strings.Index(line, sub)
	if i < 0 {
		return -1
	}
	return len([]rune(line[:i]))
}

// The PROMOTE column: absent while no row has a promotion, then each
// promoted row's step ("!" when late or stopped), "-" on the others; it
// moves with the promotion although the row does not change (never a
// cached line), and yields to the drift's columns where there is no room.
func TestPromoteColumn(t *testing.T) {
	s := store.New()
	for _, app := range []string{"api", "db"} {
		s.Upsert(model.AppView{Cluster: "c", Namespace: "ns", App: app, DeclaredTag: "v1", RunningTag: "v1", LatestTag: "v2"})
	}
	b := New(keymap.New())
	b.SetHeight(4, 3)
	b.SetSnapshot(s.Snapshot())
	if lines := renderPlain(&b, 140); strings.Contains(lines[0], "PROMOTE") {
		t.Fatalf("PROMOTE without a promotion:\n%s", strings.Join(lines, "\n"))
	}
	api := model.Key{Cluster: "c", Namespace: "ns", Name: "api"}
	b.SetPromotions(map[model.Key]string{api: PromoteCell(model.Promotion{Key: api, Step: model.PromotionOpen})})
	lines := renderPlain(&b, 140)
	col := runeIndex(lines[0], "PROMOTE")
	if col < 0 || !strings.HasPrefix(from(lines[1], col), "PR open") || !strings.HasPrefix(from(lines[2], col), "-") {
		t.Fatalf("PROMOTE column:\n%s", strings.Join(lines, "\n"))
	}
	b.SetPromotions(map[model.Key]string{api: PromoteCell(model.Promotion{Key: api, Step: model.PromotionMerged})})
	if lines := renderPlain(&b, 140); !strings.HasPrefix(from(lines[1], runeIndex(lines[0], "PROMOTE")), "merged ") {
		t.Fatalf("the promotion moved, the row did not:\n%s", strings.Join(lines, "\n"))
	}
	if lines := renderPlain(&b, 60); strings.Contains(lines[0], "PROMOTE") || !strings.Contains(lines[0], "DRIFT") {
		t.Fatalf("at 60 columns PROMOTE must yield to the drift:\n%s", strings.Join(lines, "\n"))
	}
}

func TestPromoteCell(t *testing.T) {
	for _, c := range []struct {
		p    model.Promotion
		want string
	}{
		{model.Promotion{Step: model.PromotionOpen}, "PR open"},
		{model.Promotion{Step: model.PromotionOpen, Late: "PR waiting for review for 1d"}, "! PR open"},
		{model.Promotion{Step: model.PromotionClosed}, "! PR closed"},
		{model.Promotion{Step: model.PromotionLive}, "live"},
	} {
		if got := PromoteCell(c.p); got != c.want {
			t.Errorf("PromoteCell(%s, late %q) = %q, want %q", c.p.Step, c.p.Late, got, c.want)
		}
	}
}
