package board

import (
	"strconv"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// MarkedGlyph sits in the gutter's second column of a marked row.
const MarkedGlyph = "•"

// marks are the rows chosen for a set restart, by key: a mark outlives
// filters and sorting, and a row that disappears from the fleet loses it
// (count and rows ask the current snapshot).
type marks struct {
	set map[model.Key]bool
}

func (s *marks) toggle(k model.Key) bool {
	if s.set == nil {
		s.set = map[model.Key]bool{}
	}
	if s.set[k] {
		delete(s.set, k)
		return false
	}
	s.set[k] = true
	return true
}

func (s *marks) clear() { s.set = nil }

func (s *marks) count() int { return len(s.set) }

// rows are the marked rows of snap, in its order; marks of rows no longer
// in it are dropped.
func (s *marks) rows(snap *store.Snapshot) []*model.AppView {
	if snap == nil || len(s.set) == 0 {
		return nil
	}
	var out []*model.AppView
	seen := map[model.Key]bool{}
	for r := range snap.All() {
		if s.set[r.Key()] {
			out = append(out, r)
			seen[r.Key()] = true
		}
	}
	for k := range s.set {
		if !seen[k] {
			delete(s.set, k)
		}
	}
	return out
}

// prune drops the marks of rows no longer in snap: O(marks · log n), so a
// frame with marks costs no scan of the fleet.
func (s *marks) prune(snap *store.Snapshot) {
	for k := range s.set {
		if snap.Find(k) == nil {
			delete(s.set, k)
		}
	}
}

// ToggleMark is space on the board: mark or unmark the selected row, and
// go on to the next when marking (like a file manager). false: no row is
// selected.
func (b *View) ToggleMark() bool {
	r := b.Selected()
	if r == nil {
		return false
	}
	if b.marks.toggle(r.Key()) {
		b.move(1)
	}
	return true
}

// MarkAllShown is "*": mark every row the filter shows; when they are all
// marked already, unmark everything. It says what it did.
func (b *View) MarkAllShown() string {
	rows := b.AllRows()
	all := len(rows) > 0
	for _, r := range rows {
		if !b.marks.set[r.Key()] {
			all = false
			break
		}
	}
	if all {
		b.marks.clear()
		return "marks cleared"
	}
	for _, r := range rows {
		if !b.marks.set[r.Key()] {
			b.marks.toggle(r.Key())
		}
	}
	return strconv.Itoa(len(rows)) + " shown rows marked (" + strconv.Itoa(b.marks.count()) + " in all)"
}

// MarkCount is how many rows are marked.
func (b *View) MarkCount() int { return b.marks.count() }

// MarkedRows are the marked rows of the snapshot shown, in its order.
func (b *View) MarkedRows() []*model.AppView { return b.marks.rows(b.snap) }

// ClearMarks drops every mark (a set restart ended).
func (b *View) ClearMarks() { b.marks.clear() }
