package ui

import (
	"strconv"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// markedGlyph sits in the gutter's second column of a marked row.
const markedGlyph = "•"

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

// toggleMark is space on the board: mark or unmark the selected row.
func (m *Model) toggleMark(r *model.AppView) {
	if r == nil {
		m.status = statusLine{text: "no app selected"}
		return
	}
	if m.marks.toggle(r.Key()) {
		m.board.move(1) // like a file manager: mark and go on
	}
}

// markAllShown is "*": mark every row the filter shows; when they are all
// marked already, unmark everything.
func (m *Model) markAllShown() {
	rows := m.board.allRows()
	all := len(rows) > 0
	for _, r := range rows {
		if !m.marks.set[r.Key()] {
			all = false
			break
		}
	}
	if all {
		m.marks.clear()
		m.status = statusLine{text: "marks cleared"}
		return
	}
	for _, r := range rows {
		if !m.marks.set[r.Key()] {
			m.marks.toggle(r.Key())
		}
	}
	m.status = statusLine{text: strconv.Itoa(len(rows)) + " shown rows marked (" + strconv.Itoa(m.marks.count()) + " in all)"}
}
