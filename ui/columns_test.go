package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Two apps named sql, told apart only by cluster (same namespace) or only
// by namespace, or both at once (the demo's api-chart on demo and demo-eu
// beside its api in two namespaces): down to 60 columns every visible row
// must still read differently, so the columns that tell them apart outrank
// every column but the drift itself.
func TestColumnsKeepSameNamedRowsApart(t *testing.T) {
	sql := func(cluster, ns string) model.AppView {
		return app{cluster: cluster, ns: ns, name: "sql", declared: "v1.22.2", running: "v1.22.2", latest: "v1.22.2", ready: 2, updated: 2, assets: 1}.build()
	}
	cases := map[string][]model.AppView{
		"by cluster":   {sql("prod", "hanzo"), sql("prod-eu", "hanzo")},
		"by namespace": {sql("prod", "hanzo"), sql("prod", "tenant-acme")},
		"by both":      {sql("prod", "hanzo"), sql("prod-eu", "hanzo"), sql("prod", "tenant-acme")},
	}
	for name, rows := range cases {
		for _, width := range []int{60, 70, 100} {
			m, src := newTestModel(t, nil, nil, Options{}, width, 30)
			src.SetClusters([]model.ClusterState{
				{Name: "prod", Phase: model.ConnLive, Since: t0.Add(-time.Hour)},
				{Name: "prod-eu", Phase: model.ConnLive, Since: t0.Add(-time.Hour)},
			})
			src.upsert(rows...)
			m.Update(snapshotMsg{src.Snapshot()})
			typeText(m, "/sql")
			press(m, "enter")
			var got []string
			for _, l := range strings.Split(plainView(m), "\n") {
				if strings.Contains(l, " sql ") {
					got = append(got, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "›")))
				}
			}
			if len(got) != len(rows) {
				t.Fatalf("%s at %d columns: %d sql rows, want %d:\n%s", name, width, len(got), len(rows), plainView(m))
			}
			seen := map[string]bool{}
			for _, l := range got {
				if seen[l] {
					t.Errorf("%s at %d columns: two sql rows read the same:\n%s", name, width, plainView(m))
				}
				seen[l] = true
			}
		}
	}
}

// Without same-named rows NAMESPACE keeps its low rank: at 70 columns the
// drift columns come first.
func TestColumnsDropNamespaceWhenItTellsNothingApart(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 70, 30)
	head := ""
	for _, l := range strings.Split(plainView(m), "\n") {
		if strings.Contains(l, "APP") {
			head = l
			break
		}
	}
	for _, want := range []string{"DRIFT", "APP", "HEALTH", "FLAGS"} {
		if !strings.Contains(head, want) {
			t.Errorf("header at 70 columns lacks %s: %q", want, head)
		}
	}
	if strings.Contains(head, "NAMESPACE") {
		t.Errorf("NAMESPACE shown at 70 columns though no two rows share a name: %q", head)
	}
}

// The ? help is never cut: at every width it is shown at, each key and its
// words are on the screen whole (a narrow screen stacks the key groups).
func TestHelpFitsEveryWidth(t *testing.T) {
	for _, width := range []int{60, 70, 80, 100, 160} {
		m, _ := newTestModel(t, nil, nil, Options{}, width, 60)
		press(m, "?")
		v := plainView(m)
		for page := v; ; { // help scrolls where it is taller than the screen
			press(m, "pgdown")
			next := plainView(m)
			if next == page {
				break
			}
			v, page = v+next, next
		}
		for _, want := range []string{"enter", "open the app's detail", "rolling restart (asks first)", "quit; in a view: back",
			"env: all → main → test → dev", "has:problems", "zero-assets", "GIT (Hanzo CD)"} {
			if !strings.Contains(v, want) {
				t.Errorf("help at %d columns lacks %q:\n%s", width, want, v)
			}
		}
		if strings.Contains(v, "…") {
			t.Errorf("help at %d columns is cut:\n%s", width, v)
		}
	}
}
