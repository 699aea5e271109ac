package dialog

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// jumpTitles names what ":ns", ":ctx" and ":env" alone pick from.
var jumpTitles = map[string]string{"cluster": "Contexts", "env": "Envs", "namespace": "Namespaces"}

// count tallies the rows per cluster, env and namespace, and takes in the
// clusters the board connects to that have no row yet.
func (d *Jump) count(s *store.Snapshot) {
	for _, term := range []string{"cluster", "env", "namespace"} {
		d.counts[term] = map[string]int{}
	}
	for r := range s.All() {
		d.counts["cluster"][r.Cluster]++
		d.counts["env"][string(r.Env)]++
		d.counts["namespace"][r.Namespace]++
	}
	d.phase = map[string]model.ConnPhase{}
	for _, c := range s.Clusters {
		d.phase[c.Name] = c.Phase
		if _, seen := d.counts["cluster"][c.Name]; !seen {
			d.counts["cluster"][c.Name] = 0 // connected, no row yet: still a context to pick
		}
	}
	for term, names := range d.counts {
		delete(names, "")
		for n := range names {
			d.known[term] = append(d.known[term], n)
		}
		sort.Strings(d.known[term])
	}
}

// pick is ":ns", ":ctx" or ":env" alone (k9s lists namespaces on ":ns"):
// a picker of the names the board has rows for, with their counts. nil
// with no reason when the prompt is something else; a saved filter of that
// name wins.
func (d *Jump) pick(s string) (*Picker, string) {
	s = strings.TrimSpace(s)
	term := jumpTerms[s]
	if _, saved := d.saved[s]; term == "" || saved {
		return nil, ""
	}
	names := d.known[term]
	if len(names) == 0 {
		return nil, "no " + strings.ToLower(jumpTitles[term]) + " on the board yet: type " + s + " NAME"
	}
	p := &Picker{title: jumpTitles[term] + " on the board (" + strconv.Itoa(len(names)) + ")", keys: d.keys}
	for _, n := range names {
		v, sayable := query.Quote(n) // a context may be named "my ctx" or "prod[1]"
		q := term + ":" + v
		hint := rowsWord(d.counts[term][n])
		if ph, ok := d.phase[n]; ok && term == "cluster" && ph != model.ConnLive {
			hint += " · " + string(ph)
		}
		var act Action = jumpTo(term, q, n)
		if _, err := query.Parse(q); !sayable || err != nil {
			hint, act = "cannot be a filter (a comma, quote or spaces at its ends)", None{}
		}
		if q == d.current {
			p.cursor = len(p.items)
		}
		p.items = append(p.items, PickItem{Label: n, Hint: hint, Act: act})
	}
	p.follow()
	return p, ""
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}
