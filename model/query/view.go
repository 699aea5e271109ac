package query

import (
	"slices"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/tidwall/btree"
)

// rebuildShare: a sync that brings more changed rows than a rebuildShare-th
// of the snapshot's rows re-reads every row instead (a first sync's
// workloads arriving together rebuild every row at once): a sorted bulk
// load costs a fraction of a delete, an insert and two lookups a row.
// rebuildMin keeps a small board following change by change.
const (
	rebuildShare = 4
	rebuildMin   = 256
)

// View is the board's filtered and ordered row set, kept up to date change
// by change: following a snapshot costs O(log n) per changed row, and only a
// new filter or sort re-reads every row. Its order is Select's, exactly.
type View struct {
	q    Query
	by   SortKey
	keep func(*model.AppView) bool // further filters (nil: none)

	tree *btree.BTreeG[sortItem]
	// at is the snapshot the view reflects: a row is in the view when it is
	// in at and matches, indexed as itemFor makes it (no per-row map: a
	// snapshot is immutable and O(1) to keep).
	at      *store.Snapshot
	origin  uint64 // the store and version it reflects
	version uint64
	built   bool
}

// ViewChange is a row that entered (Old nil), left (New nil) or changed in
// the view, for whoever keeps figures over the view's rows.
type ViewChange struct{ Old, New *model.AppView }

// NewView returns an empty view of the rows matching q and keep (nil: all),
// ordered by by.
func NewView(q Query, by SortKey, keep func(*model.AppView) bool) *View {
	return &View{q: q, by: by, keep: keep}
}

func (v *View) matches(r *model.AppView) bool {
	return v.q.Match(r) && (v.keep == nil || v.keep(r))
}

// Sync brings the view to snap. It returns the rows that changed in the
// view, or rebuilt=true when it re-read every row (the first time, after a
// store change, or when it fell too far behind).
func (v *View) Sync(snap *store.Snapshot) (changes []ViewChange, rebuilt bool) {
	if snap == nil {
		return nil, false
	}
	var journal []store.Change
	ok := v.built
	if ok {
		journal, ok = snap.ChangesSince(v.origin, v.version)
	}
	if !ok || len(journal) > snap.Len() || (len(journal) >= rebuildMin && len(journal)*rebuildShare > snap.Len()) {
		v.rebuild(snap)
		return nil, true
	}
	var done map[model.Key]bool // a key journaled twice is brought up to date once
	if len(journal) > 1 {
		done = make(map[model.Key]bool, len(journal))
	}
	for _, c := range journal {
		if done != nil {
			if done[c.Key] {
				continue
			}
			done[c.Key] = true
		}
		old := v.member(c.Key)
		cur := snap.Find(c.Key)
		if cur != nil && !v.matches(cur) {
			cur = nil
		}
		if old == cur {
			continue // changed back, or not in the view before or after
		}
		if old != nil {
			v.tree.Delete(itemFor(old, v.q, v.by))
		}
		if cur != nil {
			v.tree.Set(itemFor(cur, v.q, v.by))
		}
		changes = append(changes, ViewChange{Old: old, New: cur})
	}
	v.at, v.origin, v.version = snap, snap.Origin(), snap.Version
	return changes, false
}

// rebuild re-reads every row: sorted once, then loaded in order (each item
// appended to the last leaf, no search), not set one by one.
func (v *View) rebuild(snap *store.Snapshot) {
	items := make([]sortItem, 0, snap.Len())
	for r := range snap.All() {
		if v.matches(r) {
			items = append(items, itemFor(r, v.q, v.by))
		}
	}
	slices.SortFunc(items, compareItems)
	v.tree = btree.NewBTreeGOptions(compareItemsLess, btree.Options{NoLocks: true})
	for _, it := range items {
		v.tree.Load(it)
	}
	v.at, v.origin, v.version, v.built = snap, snap.Origin(), snap.Version, true
}

// member is the row with key k as the view holds it, or nil.
func (v *View) member(k model.Key) *model.AppView {
	if v.at == nil {
		return nil
	}
	if r := v.at.Find(k); r != nil && v.matches(r) {
		return r
	}
	return nil
}

func compareItemsLess(a, b sortItem) bool { return compareItems(a, b) < 0 }

// Len is how many rows the view holds.
func (v *View) Len() int {
	if v.tree == nil {
		return 0
	}
	return v.tree.Len()
}

// At returns the i-th row in order, or nil.
func (v *View) At(i int) *model.AppView {
	if v.tree == nil {
		return nil
	}
	it, ok := v.tree.GetAt(i)
	if !ok {
		return nil
	}
	return it.v
}

// Index returns the position of the row with key k, if it is in the view
// (a binary search over positions: O(log² n)).
func (v *View) Index(k model.Key) (int, bool) {
	r := v.member(k)
	if r == nil {
		return 0, false
	}
	it := itemFor(r, v.q, v.by)
	lo, hi := 0, v.tree.Len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		at, _ := v.tree.GetAt(mid)
		if compareItems(at, it) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, true
}

// Range calls f with the rows from position i on, in order, until f
// returns false.
func (v *View) Range(i int, f func(i int, r *model.AppView) bool) {
	if v.tree == nil || i >= v.tree.Len() {
		return
	}
	first, _ := v.tree.GetAt(max(i, 0))
	n := max(i, 0)
	v.tree.Ascend(first, func(it sortItem) bool {
		ok := f(n, it.v)
		n++
		return ok
	})
}

// Rows returns every row in order (O(n): for actions over the whole view,
// not for drawing a frame).
func (v *View) Rows() []*model.AppView {
	out := make([]*model.AppView, 0, v.Len())
	v.Range(0, func(_ int, r *model.AppView) bool {
		out = append(out, r)
		return true
	})
	return out
}
