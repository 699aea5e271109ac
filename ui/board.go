package ui

import (
	"slices"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// envOrder is the cycle of the "e" key ("" = all envs).
var envOrder = append([]model.Env{""}, model.Envs...)

// board is the table's state: the snapshot, the filtered and sorted rows
// (cached until snapshot, query, sort or toggles change), the selection (by
// key, so it follows an app when rows move) and the scroll window.
type board struct {
	snap        *model.Snapshot
	query       model.Query
	sort        model.SortKey
	onlyDrifted bool
	env         model.Env

	rows     []*model.AppView
	want     [numCols]int  // content width per column over rows
	ident    [numCols]bool // columns that tell two rows apart
	clusters int           // clusters the snapshot spans
	dirty    bool

	sel    model.Key
	hasSel bool
	// chosen: the user has put the cursor on an app. Until then the cursor
	// stays on row 1 while rows arrive; after, it follows that app. (Following
	// from the start put it on row 14 when the first snapshot held only the
	// apps synced so far and the rest sorted above them.)
	chosen bool
	cursor int
	offset int
	height int // visible rows
	top    int // screen line of the first row (for clicks)
	keys   keyMap
}

func newBoard(keys keyMap) board {
	q, _ := model.ParseQuery("")
	return board{query: q, sort: model.SortSeverity, dirty: true, height: 1, keys: keys}
}

func (b *board) setSnapshot(s *model.Snapshot) {
	if s == nil {
		return
	}
	if b.snap != nil && s.Version == b.snap.Version && len(s.Rows) == len(b.snap.Rows) {
		b.snap = s
		return
	}
	b.snap = s
	b.clusters = countClusters(s)
	b.dirty = true
	b.refresh()
}

func (b *board) setQuery(q model.Query) {
	b.query, b.dirty = q, true
	b.refresh()
}

func (b *board) cycleSort() {
	b.sort = b.sort.Next()
	b.dirty = true
	b.refresh()
}

func (b *board) cycleEnv() {
	// An unknown env (not in the cycle) gives index -1, so the cycle restarts at "all".
	b.env = envOrder[(slices.Index(envOrder, b.env)+1)%len(envOrder)]
	b.dirty = true
	b.refresh()
}

func (b *board) toggleDrifted() {
	b.onlyDrifted = !b.onlyDrifted
	b.dirty = true
	b.refresh()
}

// refresh recomputes the visible row set and puts the cursor back on the
// selected app.
func (b *board) refresh() {
	if !b.dirty || b.snap == nil {
		return
	}
	b.dirty = false
	rows := model.Select(b.snap.Rows, b.query, b.sort)
	if b.env != "" || b.onlyDrifted {
		kept := make([]*model.AppView, 0, len(rows))
		for _, r := range rows {
			if b.env != "" && r.Env != b.env {
				continue
			}
			if b.onlyDrifted && r.Drift.Severity == drift.SeverityOK {
				continue
			}
			kept = append(kept, r)
		}
		rows = kept
	}
	b.rows = rows
	b.want = contentWidths(rows)
	b.ident = identifying(rows)
	if !b.chosen {
		b.place(0)
		return
	}
	if b.hasSel {
		for i, r := range rows {
			if r.Cluster == b.sel.Cluster && r.App == b.sel.Name && r.Namespace == b.sel.Namespace {
				b.cursor = i
				b.ensureVisible()
				return
			}
		}
	}
	b.place(b.cursor)
}

// moveTo is the user putting the cursor on row i: from now on it follows
// that app.
func (b *board) moveTo(i int) {
	b.chosen = true
	b.place(i)
}

// place puts the cursor on row i (clamped) and selects that row's app.
func (b *board) place(i int) {
	if len(b.rows) == 0 {
		b.cursor, b.offset = 0, 0
		return
	}
	b.cursor = max(0, min(i, len(b.rows)-1))
	b.sel, b.hasSel = b.rows[b.cursor].Key(), true
	b.ensureVisible()
}

func (b *board) move(delta int) { b.moveTo(b.cursor + delta) }

func (b *board) setHeight(h int) {
	b.height = max(1, h)
	b.ensureVisible()
}

func (b *board) ensureVisible() {
	if b.cursor < b.offset {
		b.offset = b.cursor
	}
	if b.cursor >= b.offset+b.height {
		b.offset = b.cursor - b.height + 1
	}
	b.offset = max(0, min(b.offset, len(b.rows)-b.height))
}

// selected is the row under the cursor, or nil.
func (b *board) selected() *model.AppView {
	if b.cursor < 0 || b.cursor >= len(b.rows) {
		return nil
	}
	return b.rows[b.cursor]
}

// jumpProblem moves to the next (dir 1) or previous (dir -1) red or yellow
// row, or one with problems ("!"), wrapping around. It reports whether one
// was found.
func (b *board) jumpProblem(dir int) bool {
	n := len(b.rows)
	for step := 1; step <= n; step++ {
		i := ((b.cursor+dir*step)%n + n) % n
		if s := b.rows[i].Drift.Severity; s == drift.SeverityRed || s == drift.SeverityYellow || len(b.rows[i].Problems) > 0 {
			b.moveTo(i)
			return true
		}
	}
	return false
}

// find returns the snapshot's current row for k (nil if gone). Rows in a
// snapshot are sorted by key, but a linear scan is cheap and assumes less.
func (b *board) find(k model.Key) *model.AppView {
	if b.snap == nil {
		return nil
	}
	for _, r := range b.snap.Rows {
		if r.App == k.Name && r.Namespace == k.Namespace && r.Cluster == k.Cluster {
			return r
		}
	}
	return nil
}

// countClusters is how many clusters a snapshot spans (for the cluster column).
func countClusters(s *model.Snapshot) int {
	if len(s.Clusters) > 0 {
		return len(s.Clusters)
	}
	seen := map[string]bool{}
	for _, r := range s.Rows {
		seen[r.Cluster] = true
		if len(seen) > 1 {
			break
		}
	}
	return len(seen)
}
