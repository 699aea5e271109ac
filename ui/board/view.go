package ui

import (
	"slices"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/keymap"
)

// envOrder is the cycle of the "e" key ("" = all envs).
var envOrder = append([]model.Env{""}, model.Envs...)

// board is the table's state: the snapshot, the filtered and sorted rows
// (a query.View that follows the snapshots change by change, rebuilt only
// when the query, sort or toggles change), the selection (by key, so it
// follows an app when rows move) and the scroll window.
type board struct {
	snap        *store.Snapshot
	query       query.Query
	sort        query.SortKey
	onlyDrifted bool
	env         model.Env

	view     *query.View
	stats    colStats      // kept over the view's rows as they change
	want     [numCols]int  // content width per column over the view's rows
	ident    [numCols]bool // columns that tell two rows apart
	clusters int           // clusters the snapshot spans
	dirty    bool          // the query, sort or toggles changed: a new view
	rebuilds int           // times the view re-read every row (tests count them)

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
	keys   keymap.Map
	rows   rowCache // the shown rows' lines, kept between frames
}

func newBoard(keys keymap.Map) board {
	q, _ := query.Parse("")
	return board{query: q, sort: query.SortSeverity, dirty: true, height: 1, keys: keys}
}

func (b *board) setSnapshot(s *store.Snapshot) {
	if s == nil {
		return
	}
	if b.snap != nil && s.Version == b.snap.Version && s.Len() == b.snap.Len() {
		b.snap = s
		return
	}
	b.snap = s
	b.clusters = s.ClusterCount()
	b.refresh()
}

func (b *board) setQuery(q query.Query) {
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

func (b *board) setEnv(e model.Env) {
	if b.env != e {
		b.env, b.dirty = e, true
		b.refresh()
	}
}

func (b *board) toggleDrifted() {
	b.onlyDrifted = !b.onlyDrifted
	b.dirty = true
	b.refresh()
}

// refresh brings the view up to the snapshot and puts the cursor back on
// the selected app.
func (b *board) refresh() {
	if b.snap == nil {
		return
	}
	if b.dirty || b.view == nil {
		b.dirty = false
		b.view = query.NewView(b.query, b.sort, b.keep())
	}
	changes, rebuilt := b.view.Sync(b.snap)
	if rebuilt {
		b.rebuilds++
		b.stats.reset()
		b.view.Range(0, func(_ int, r *model.AppView) bool {
			b.stats.add(r)
			return true
		})
	}
	for _, c := range changes {
		b.stats.remove(c.Old)
		b.stats.add(c.New)
	}
	b.want, b.ident = b.stats.want(), b.stats.ident()
	if !b.chosen {
		b.place(0)
		return
	}
	if b.hasSel {
		if i, ok := b.view.Index(b.sel); ok {
			b.cursor = i
			b.ensureVisible()
			return
		}
	}
	b.place(b.cursor)
}

// keep is the quick filters (env, only drifted) on top of the query.
func (b *board) keep() func(*model.AppView) bool {
	env, onlyDrifted := b.env, b.onlyDrifted
	if env == "" && !onlyDrifted {
		return nil
	}
	return func(r *model.AppView) bool {
		return (env == "" || r.Env == env) && (!onlyDrifted || r.Verdict().Mark != model.MarkOK)
	}
}

// rowCount is how many rows the board shows (after every filter).
func (b *board) rowCount() int {
	if b.view == nil {
		return 0
	}
	return b.view.Len()
}

// allRows is every shown row in order: O(n), for actions on the whole view.
func (b *board) allRows() []*model.AppView {
	if b.view == nil {
		return nil
	}
	return b.view.Rows()
}

// moveTo is the user putting the cursor on row i: from now on it follows
// that app.
func (b *board) moveTo(i int) {
	b.chosen = true
	b.place(i)
}

// place puts the cursor on row i (clamped) and selects that row's app.
func (b *board) place(i int) {
	n := b.rowCount()
	if n == 0 {
		b.cursor, b.offset = 0, 0
		return
	}
	b.cursor = max(0, min(i, n-1))
	b.sel, b.hasSel = b.view.At(b.cursor).Key(), true
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
	b.offset = max(0, min(b.offset, b.rowCount()-b.height))
}

// selected is the row under the cursor, or nil.
func (b *board) selected() *model.AppView {
	if b.cursor < 0 || b.cursor >= b.rowCount() {
		return nil
	}
	return b.view.At(b.cursor)
}

// jumpProblem moves to the next (dir 1) or previous (dir -1) row that is
// not ✓ (red, yellow, ?), wrapping around. It reports whether one was found.
func (b *board) jumpProblem(dir int) bool {
	rows := b.allRows()
	n := len(rows)
	for step := 1; step <= n; step++ {
		i := ((b.cursor+dir*step)%n + n) % n
		if rows[i].Verdict().Mark != model.MarkOK { // a problem makes it yellow or worse
			b.moveTo(i)
			return true
		}
	}
	return false
}

// find returns the snapshot's current row for k (nil if gone).
func (b *board) find(k model.Key) *model.AppView {
	if b.snap == nil {
		return nil
	}
	return b.snap.Find(k)
}
