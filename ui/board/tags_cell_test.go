package board

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// The tags cell cut to its column keeps what the pods run in view: the
// declared tag is cut first; a running tag too long for that gets about
// half; a hostile tag is cut as it is shown (escaped), never mid-escape raw.
func TestFitTagsKeepsTheRunningTag(t *testing.T) {
	row := func(declared, running string) model.AppView {
		return model.AppView{Namespace: "hanzo", App: "api", DeclaredTag: declared, RunningTag: running, LatestTag: "v1.0.0"}
	}
	cases := []struct {
		declared, running string
		w                 int
		want              string
	}{
		{"v1.22.7", "v1.22.5", 15, "v1.22.7→v1.22.5"},
		{"v1.22.7", "v1.22.7", 15, "v1.22.7"},
		{"v1.0.0-" + strings.Repeat("x", 40), "v1.0.0", 20, "v1.0.0-xxxxx…→v1.0.0"},
		{"v1.5.0-rc1", "v1.4.0", 15, "v1.5.0-…→v1.4.0"},
		{"v1.0.0", "sha-" + strings.Repeat("a", 40), 15, "v1.0.0→sha-aaa…"},
		{"sha-" + strings.Repeat("b", 40), "sha-" + strings.Repeat("a", 40), 15, "sha-bb…→sha-aa…"},
		{"v1\x1b[2J", "v1.0.0", 12, `v1\x…→v1.0.0`},
	}
	for _, c := range cases {
		v := row(c.declared, c.running)
		got := fitTags(&v, c.w)
		if got != c.want {
			t.Errorf("fitTags(%q→%q, %d) = %q, want %q", c.declared, c.running, c.w, got, c.want)
		}
		if format.TextWidth(got) > c.w {
			t.Errorf("fitTags(%q→%q, %d) = %q: %d columns", c.declared, c.running, c.w, got, format.TextWidth(got))
		}
	}
}
