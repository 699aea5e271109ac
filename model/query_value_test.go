package model

import "testing"

// A name written by QueryValue selects that name and no other, whatever
// characters the query language reads otherwise (space, glob, colon).
func TestQueryValueSelectsExactlyTheName(t *testing.T) {
	t.Parallel()
	names := []string{"prod", "my ctx", "prod[1]", "prod1", "a*b", "axb", `back\slash`, "tab\there",
		"arn:aws:eks:eu-west-1:1234:cluster/prod", "-dash", "prod?"}
	for _, name := range names {
		v, ok := QueryValue(name)
		if !ok {
			t.Errorf("QueryValue(%q): not sayable", name)
			continue
		}
		q, err := ParseQuery("cluster:" + v)
		if err != nil {
			t.Errorf("QueryValue(%q) = %s: %v", name, v, err)
			continue
		}
		for _, other := range names {
			if got := q.Match(&AppView{Cluster: other}); got != (other == name) {
				t.Errorf("cluster:%s matches %q: %v, want %v", v, other, got, other == name)
			}
		}
	}
	for _, name := range []string{"", "a,b", `say "hi"`, " lead", "trail "} {
		if v, ok := QueryValue(name); ok {
			t.Errorf("QueryValue(%q) = %s; the language cannot say it exactly", name, v)
		}
	}
}
