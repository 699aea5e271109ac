package ui

import (
	"fmt"
	"strings"
	"testing"
)

// A tag cut to its column in the detail's tags table keeps its "…" and a
// space before the next column, at every width.
func TestDetailTagsTableKeepsAGap(t *testing.T) {
	for _, w := range []int{60, 80, 100, 160} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m, src := newTestModel(t, nil, nil, Options{}, w, 40)
			src.upsert(app{ns: "hanzo", name: "web", declared: "v1.2.3-rc.1.build.20261130.abcdef",
				running: "v1.2.2-rc.9.build.20261101.123456", latest: "v1.2.3-rc.1.build.20261130.abcdef", ready: 2, updated: 2, assets: 1}.build())
			m.Update(snapshotMsg{src.Snapshot()})
			selectApp(t, m, "web")
			press(m, "enter")
			v := plainView(m)
			if w == 100 {
				checkGolden(t, "detail_tags_cut_w100", v)
			}
			lines := strings.Split(v, "\n")
			for i, l := range lines {
				if !strings.HasPrefix(strings.TrimSpace(l), "declared (") || i+1 == len(lines) {
					continue
				}
				values := lines[i+1]
				if n := strings.Count(values, "…"); n < 3 {
					t.Fatalf("the long tags should be cut (3 of them), %d are:\n%s", n, values)
				}
				for _, part := range strings.Split(values, "…")[1:] {
					if !strings.HasPrefix(part, " ") && part != "" {
						t.Errorf("a cut tag touches the next column: %q", values)
					}
				}
				return
			}
			t.Fatalf("no tags table:\n%s", v)
		})
	}
}
