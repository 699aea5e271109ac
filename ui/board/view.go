// Package board is the drift board's table as a component: the rows of
// the store's snapshots through a query.View (filtered, sorted, followed
// change by change), the selection that follows an app, the columns fitted
// to the width, the rows drawn from a cache of their lines, the marks of a
// set restart, and the "/" query line (Filter). It does no IO; the root
// routes keys to it and draws it with what only the root knows (restarts
// in flight, the spinner, what an empty table says) in a Decor.
package board

import (
	"slices"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/keymap"
)

// envOrder is the cycle of the "e" key ("" = all envs).
var envOrder = append([]model.Env{""}, model.Envs...)

// View is the table's state: the snapshot, the filtered and sorted rows
// (a query.View that follows the snapshots change by change, rebuilt only
// when the query, sort or toggles change), the selection (by key, so it
// follows an app when rows move) and the scroll window.
type View struct {
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
	marks  marks    // rows marked for a set restart (marks.go)
	// promotions are the PROMOTE cells of the rows with a promotion kept
	// (promote.go); promoteWidth the widest, 0 when none: no column.
	promotions   map[model.Key]string
	promoteWidth int
}

// New is an empty board sorted by severity.
func New(keys keymap.Map) View {
	q, _ := query.Parse("")
	return View{query: q, sort: query.SortSeverity, dirty: true, height: 1, keys: keys}
}

// SetKeys gives the board the keymap (overrides, read-only, login).
func (b *View) SetKeys(keys keymap.Map) { b.keys = keys }

// SetSnapshot shows snapshot s; a row that left the fleet loses its mark.
func (b *View) SetSnapshot(s *store.Snapshot) {
	if s == nil {
		return
	}
	b.marks.prune(s)
	if b.snap != nil && s.Version == b.snap.Version && s.Len() == b.snap.Len() {
		b.snap = s
		return
	}
	b.snap = s
	b.clusters = s.ClusterCount()
	b.refresh()
}

// SetQuery shows the rows q matches.
func (b *View) SetQuery(q query.Query) {
	b.query, b.dirty = q, true
	b.refresh()
}

// CycleSort moves to the next sort order.
func (b *View) CycleSort() {
	b.sort = b.sort.Next()
	b.dirty = true
	b.refresh()
}

func (b *View) cycleEnv() {
	// An unknown env (not in the cycle) gives index -1, so the cycle restarts at "all".
	b.env = envOrder[(slices.Index(envOrder, b.env)+1)%len(envOrder)]
	b.dirty = true
	b.refresh()
}

// SetEnv shows env e alone ("": every env), as the e key does.
func (b *View) SetEnv(e model.Env) {
	if b.env != e {
		b.env, b.dirty = e, true
		b.refresh()
	}
}

func (b *View) toggleDrifted() {
	b.onlyDrifted = !b.onlyDrifted
	b.dirty = true
	b.refresh()
}

// ClearToggles drops the quick filters (the env, only drifted) and reports
// whether there were any.
func (b *View) ClearToggles() bool {
	if b.env == "" && !b.onlyDrifted {
		return false
	}
	b.env, b.onlyDrifted, b.dirty = "", false, true
	b.refresh()
	return true
}

// Snap is the snapshot shown (nil before the first).
func (b *View) Snap() *store.Snapshot { return b.snap }

// Env is the e key's env ("": all); OnlyDrifted the d key's toggle; Sort
// the order.
func (b *View) Env() model.Env      { return b.env }
func (b *View) OnlyDrifted() bool   { return b.onlyDrifted }
func (b *View) Sort() query.SortKey { return b.sort }

// Cursor is the selected row's index, Offset the first row shown, Height
// how many rows show.
func (b *View) Cursor() int { return b.cursor }
func (b *View) Offset() int { return b.offset }
func (b *View) Height() int { return b.height }

// Rebuilds is how often the view re-read every row; Rendered how many row
// lines were drawn rather than reused (tests and benchmarks count them).
func (b *View) Rebuilds() int { return b.rebuilds }
func (b *View) Rendered() int { return b.rows.rendered }

// refresh brings the view up to the snapshot and puts the cursor back on
// the selected app.
func (b *View) refresh() {
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
func (b *View) keep() func(*model.AppView) bool {
	env, onlyDrifted := b.env, b.onlyDrifted
	if env == "" && !onlyDrifted {
		return nil
	}
	return func(r *model.AppView) bool {
		return (env == "" || r.Env == env) && (!onlyDrifted || r.Verdict().Mark != model.MarkOK)
	}
}

// RowCount is how many rows the board shows (after every filter).
func (b *View) RowCount() int {
	if b.view == nil {
		return 0
	}
	return b.view.Len()
}

// AllRows is every shown row in order: O(n), for actions on the whole view.
func (b *View) AllRows() []*model.AppView {
	if b.view == nil {
		return nil
	}
	return b.view.Rows()
}

// MoveTo is the user putting the cursor on row i: from now on it follows
// that app.
func (b *View) MoveTo(i int) {
	b.chosen = true
	b.place(i)
}

// place puts the cursor on row i (clamped) and selects that row's app.
func (b *View) place(i int) {
	n := b.RowCount()
	if n == 0 {
		b.cursor, b.offset = 0, 0
		return
	}
	b.cursor = max(0, min(i, n-1))
	b.sel, b.hasSel = b.view.At(b.cursor).Key(), true
	b.ensureVisible()
}

func (b *View) move(delta int) { b.MoveTo(b.cursor + delta) }

// SetHeight is how many rows show; top the screen line of the first (for
// clicks).
func (b *View) SetHeight(h, top int) {
	b.top = top
	b.height = max(1, h)
	b.ensureVisible()
}

func (b *View) ensureVisible() {
	if b.cursor < b.offset {
		b.offset = b.cursor
	}
	if b.cursor >= b.offset+b.height {
		b.offset = b.cursor - b.height + 1
	}
	b.offset = max(0, min(b.offset, b.RowCount()-b.height))
}

// Selected is the row under the cursor, or nil.
func (b *View) Selected() *model.AppView {
	if b.cursor < 0 || b.cursor >= b.RowCount() {
		return nil
	}
	return b.view.At(b.cursor)
}

// JumpProblem moves to the next (dir 1) or previous (dir -1) row that is
// not ✓ (red, yellow, ?), wrapping around. It reports whether one was found.
func (b *View) JumpProblem(dir int) bool {
	rows := b.AllRows()
	n := len(rows)
	for step := 1; step <= n; step++ {
		i := ((b.cursor+dir*step)%n + n) % n
		if rows[i].Verdict().Mark != model.MarkOK { // a problem makes it yellow or worse
			b.MoveTo(i)
			return true
		}
	}
	return false
}

// Find returns the snapshot's current row for k (nil if gone).
func (b *View) Find(k model.Key) *model.AppView {
	if b.snap == nil {
		return nil
	}
	return b.snap.Find(k)
}
