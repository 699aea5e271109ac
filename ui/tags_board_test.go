package ui

import (
	"strings"
	"testing"
)

// On 80- and 100-column boards a long declared tag no longer hides the
// running one, and a semver pair shows whole (decorations yield first).
func TestBoardShowsRunningTagBesideALongDeclaredOne(t *testing.T) {
	for _, width := range []int{80, 100} {
		m, src := newTestModel(t, nil, nil, Options{}, width, 20)
		long := "v1.0.0-" + strings.Repeat("x", 60)
		src.upsert(app{ns: "hanzo", name: "api", declared: long, running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build(),
			app{ns: "hanzo", name: "web", declared: "v1.22.7", running: "v1.22.5", latest: "v1.22.7", ready: 2, updated: 2, assets: 1}.build())
		m.Update(snapshotMsg{src.Snapshot()})
		v := plainView(m)
		for _, want := range []string{"…→v1.0.0", "v1.22.7→v1.22.5"} {
			if !strings.Contains(v, want) {
				t.Errorf("the %d-column board lacks %q:\n%s", width, want, v)
			}
		}
	}
}
