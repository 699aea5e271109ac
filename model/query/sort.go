package query

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/hanzoai/driftboard/model"
)

// SortKey orders the board.
type SortKey int

const (
	SortSeverity  SortKey = iota // by the row's mark (red, yellow, ?, ok), then name (the default)
	SortName                     // app name
	SortEnv                      // main, test, dev, then unknown
	SortNamespace                // namespace, then name
	SortDriftAge                 // longest drifting first; rows without drift last
)

// SortWords are the sort orders' names, in SortKey order (SortKey indexes
// it): the board's header ("sort: drift-age"), --sort-by and its completion.
var SortWords = model.Words[SortKey]{
	{Value: SortSeverity, Name: "severity", Board: "severity", Text: "severity"},
	{Value: SortName, Name: "name", Board: "name", Text: "name"},
	{Value: SortEnv, Name: "env", Board: "env", Text: "env"},
	{Value: SortNamespace, Name: "namespace", Board: "namespace", Text: "namespace"},
	{Value: SortDriftAge, Name: "drift-age", Board: "drift-age", Text: "drift-age", Also: []string{"age", "drift"}},
}

func (k SortKey) String() string {
	if k < 0 || int(k) >= len(SortWords) {
		return fmt.Sprintf("SortKey(%d)", int(k))
	}
	return SortWords[k].Board
}

// Next cycles to the following sort key (for a "change sort" key binding).
func (k SortKey) Next() SortKey { return (k + 1) % SortKey(len(SortWords)) }

// ParseSortKey reads a sort key by any of its words.
func ParseSortKey(s string) (SortKey, error) {
	if w, ok := SortWords.Lookup(s); ok {
		return w.Value, nil
	}
	return 0, fmt.Errorf("unknown sort %q (one of %s)", s, strings.Join(SortWords.Names(), ", "))
}

// sortItem holds a row's sort fields inline: comparing contiguous items
// instead of chasing 10,000 row pointers is what keeps Select fast.
type sortItem struct {
	match  int // the query's match rank (exact name, prefix, other) before the sort's own order
	a, b   int64
	s1, s2 string
	v      *model.AppView
}

var itemPool = sync.Pool{New: func() any { return new([]sortItem) }}

// Select returns the rows matching q, sorted by the key: rows whose name
// the query's free text names exactly come first, then names it starts,
// then the other matches (Query.Rank), as fzf ranks. Every order ends in
// the row's Key, so it is total and the result does not depend on the input
// order (stronger than a stable sort, and cheaper). rows is not modified; the
// result is a new slice sharing the row pointers.
func Select(rows []*model.AppView, q Query, by SortKey) []*model.AppView {
	buf := itemPool.Get().(*[]sortItem)
	items := (*buf)[:0]
	for _, v := range rows {
		if q.Match(v) {
			items = append(items, itemFor(v, q, by))
		}
	}
	slices.SortFunc(items, compareItems)
	out := make([]*model.AppView, len(items))
	for i := range items {
		out[i] = items[i].v
		items[i] = sortItem{} // drop references before pooling
	}
	*buf = items
	itemPool.Put(buf)
	return out
}

func itemFor(v *model.AppView, q Query, by SortKey) sortItem {
	it := sortItemBy(v, by)
	it.match = q.Rank(v)
	return it
}

func sortItemBy(v *model.AppView, by SortKey) sortItem {
	rank := int64(v.Verdict().Mark) // red, yellow, ?, ok
	switch by {
	case SortName:
		return sortItem{s1: v.App, v: v}
	case SortEnv:
		return sortItem{a: int64(v.Env.Rank()), s1: v.App, v: v}
	case SortNamespace:
		return sortItem{s1: v.Namespace, s2: v.App, v: v}
	case SortDriftAge:
		since := int64(math.MaxInt64)
		if v.DriftSince != nil { // unknown sorts last
			since = v.DriftSince.UnixNano()
		}
		return sortItem{a: since, b: -rank, s1: v.App, v: v}
	}
	return sortItem{a: -rank, s1: v.App, v: v}
}

func compareItems(x, y sortItem) int {
	if c := cmp.Compare(x.match, y.match); c != 0 {
		return c
	}
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	if c := cmp.Compare(x.b, y.b); c != 0 {
		return c
	}
	if c := strings.Compare(x.s1, y.s1); c != 0 {
		return c
	}
	if c := strings.Compare(x.s2, y.s2); c != 0 {
		return c
	}
	return x.v.Key().Compare(y.v.Key())
}
