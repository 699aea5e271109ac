package query

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// A name written by Quote selects that name and no other, whatever
// characters the query language reads otherwise (space, glob, colon).
func TestQuoteSelectsExactlyTheName(t *testing.T) {
	t.Parallel()
	names := []string{"prod", "my ctx", "prod[1]", "prod1", "a*b", "axb", `back\slash`, "tab\there",
		"arn:aws:eks:eu-west-1:1234:cluster/prod", "-dash", "prod?"}
	for _, name := range names {
		v, ok := Quote(name)
		if !ok {
			t.Errorf("Quote(%q): not sayable", name)
			continue
		}
		q, err := Parse("cluster:" + v)
		if err != nil {
			t.Errorf("Quote(%q) = %s: %v", name, v, err)
			continue
		}
		for _, other := range names {
			if got := q.Match(&model.AppView{Cluster: other}); got != (other == name) {
				t.Errorf("cluster:%s matches %q: %v, want %v", v, other, got, other == name)
			}
		}
	}
	for _, name := range []string{"", "a,b", `say "hi"`, " lead", "trail "} {
		if v, ok := Quote(name); ok {
			t.Errorf("Quote(%q) = %s; the language cannot say it exactly", name, v)
		}
	}
}
