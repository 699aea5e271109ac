package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
)

// refBoard is the board as it was before the incremental view: every
// snapshot re-filters and re-sorts all rows and measures them again. The
// differential test holds the board to it.
type refBoard struct {
	rows                   []*model.AppView
	want                   [numCols]int
	ident                  [numCols]bool
	sel                    model.Key
	hasSel, chosen         bool
	cursor, offset, height int
}

func (b *refBoard) refresh(snap *store.Snapshot, q query.Query, by query.SortKey, env model.Env, onlyDrifted bool) {
	rows := query.Select(snap.Rows(), q, by)
	rows = slices.DeleteFunc(rows, func(r *model.AppView) bool {
		return env != "" && r.Env != env || onlyDrifted && r.Verdict().Mark == model.MarkOK
	})
	b.rows, b.want, b.ident = rows, contentWidths(rows), identifying(rows)
	if !b.chosen {
		b.place(0)
		return
	}
	if b.hasSel {
		for i, r := range rows {
			if r.Key() == b.sel {
				b.cursor = i
				b.ensureVisible()
				return
			}
		}
	}
	b.place(b.cursor)
}

func (b *refBoard) place(i int) {
	if len(b.rows) == 0 {
		b.cursor, b.offset = 0, 0
		return
	}
	b.cursor = max(0, min(i, len(b.rows)-1))
	b.sel, b.hasSel = b.rows[b.cursor].Key(), true
	b.ensureVisible()
}

func (b *refBoard) ensureVisible() {
	if b.cursor < b.offset {
		b.offset = b.cursor
	}
	if b.cursor >= b.offset+b.height {
		b.offset = b.cursor - b.height + 1
	}
	b.offset = max(0, min(b.offset, len(b.rows)-b.height))
}

// contentWidths measures what each column's content wants over rows, with
// length arithmetic rather than building the cells (it runs over every
// filtered row when the row set changes).
func contentWidths(rows []*model.AppView) [numCols]int {
	var w [numCols]int
	w[colSeverity] = 8
	w[colEnv] = 4
	w[colHealth] = 7 // "offline"
	// Past 1,000 rows a sample is enough: outliers are truncated with "…".
	step := max(1, len(rows)/1000)
	for i := 0; i < len(rows); i += step {
		r := rows[i]
		w[colApp] = max(w[colApp], format.TextWidth(r.App))
		w[colNamespace] = max(w[colNamespace], format.TextWidth(r.Namespace))
		w[colCluster] = max(w[colCluster], format.TextWidth(r.Cluster))
		w[colLatest] = max(w[colLatest], format.TextWidth(r.LatestTag))
		w[colPhase] = max(w[colPhase], format.TextWidth(r.Phase))
		tags := format.TextWidth(r.DeclaredTag)
		if r.DeclaredTag != r.RunningTag {
			tags += 1 + max(1, format.TextWidth(r.RunningTag))
		}
		w[colTags] = max(w[colTags], tags)
		ro := 3 + digits(r.Workload.Ready) + digits(r.Workload.Desired)
		switch {
		case !r.Workload.Found:
			ro = format.TextWidth(RolloutCell(r, nil))
		case r.Workload.Rollout != model.RolloutComplete:
			ro = format.TextWidth(RolloutCell(r, nil))
		}
		w[colRollout] = max(w[colRollout], ro)
		fw := 3*len(r.Drift.Flags) - 1
		if r.WaitsOnRelease() {
			fw += 1 + len(unknownRelease)
		}
		if len(r.Problems) > 0 {
			fw += 1 + format.TextWidth(problemCell(r.Problems))
		}
		w[colFlags] = max(w[colFlags], fw)
	}
	return w
}

// identifying reports which columns tell two rows with the same app name
// apart: NAMESPACE when such rows differ in namespace, CLUSTER when they
// share the namespace too and differ only in cluster.
func identifying(rows []*model.AppView) [numCols]bool {
	var out [numCols]bool
	type nsKey struct{ app, ns string }
	firstNS := make(map[string]string, len(rows))
	firstCluster := make(map[nsKey]string, len(rows))
	for _, r := range rows {
		if ns, ok := firstNS[r.App]; !ok {
			firstNS[r.App] = r.Namespace
		} else if ns != r.Namespace {
			out[colNamespace] = true
		}
		k := nsKey{r.App, r.Namespace}
		if c, ok := firstCluster[k]; !ok {
			firstCluster[k] = r.Cluster
		} else if c != r.Cluster {
			out[colCluster] = true
		}
	}
	return out
}

// churnRow is a row from a small key space with common ties.
func churnRow(rnd *rand.Rand) model.AppView {
	sevs := []drift.DriftSeverity{drift.SeverityOK, drift.SeverityYellow, drift.SeverityRed}
	envs := append([]model.Env{""}, model.Envs...)
	app := rnd.IntN(15) // names of many lengths: the widest often leaves
	v := model.AppView{
		Cluster: fmt.Sprintf("c%d", rnd.IntN(3)), Namespace: fmt.Sprintf("ns%d", rnd.IntN(4)),
		App: fmt.Sprintf("app-%s%d", strings.Repeat("x", app), app), Env: envs[rnd.IntN(len(envs))],
		DeclaredTag: fmt.Sprintf("v1.%d.0", rnd.IntN(20)), RunningTag: fmt.Sprintf("v1.%d.0", rnd.IntN(200)),
		LatestTag: fmt.Sprintf("v1.%d", rnd.IntN(2000)),
		Phase:     strings.Repeat("p", rnd.IntN(40)), // the widest is rare and changes
	}
	v.Drift.Severity = sevs[rnd.IntN(len(sevs))]
	if rnd.IntN(2) == 0 {
		t := time.Date(2026, 1, 1, rnd.IntN(3), 0, 0, 0, time.UTC)
		v.DriftSince = &t
	}
	return v
}

// TestBoardMatchesFullRefresh: under random changes, user moves, filters,
// sorts and toggles, the incremental board shows the same rows in the same
// order, with the cursor on the same app, the same scroll and the same
// column widths as a full filter+sort of every snapshot.
func TestBoardMatchesFullRefresh(t *testing.T) {
	queries := []string{"", "sev:red,yellow", "app-x", "ns:ns1", "-cluster:c0"}
	for seed := range uint64(30) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		st := store.New()
		b := New(keymap.Map{})
		b.SetHeight(1+rnd.IntN(8), 0)
		ref := refBoard{height: b.height}
		for step := range 300 {
			switch op := rnd.IntN(100); {
			case op < 50:
				for range 1 + rnd.IntN(3) {
					st.Upsert(churnRow(rnd))
				}
			case op < 65:
				r := churnRow(rnd)
				st.Delete(r.Key())
			case op < 68:
				st.SetOffline(fmt.Sprintf("c%d", rnd.IntN(3)), rnd.IntN(2) == 0)
			case op < 80: // the user moves the cursor
				i := rnd.IntN(b.RowCount() + 1)
				b.MoveTo(i)
				ref.chosen = true
				ref.place(i)
			case op < 84:
				q, _ := query.Parse(queries[rnd.IntN(len(queries))])
				b.SetQuery(q)
			case op < 88:
				b.CycleSort()
			case op < 92:
				b.cycleEnv()
			case op < 95:
				b.toggleDrifted()
			}
			b.SetSnapshot(st.Snapshot())
			ref.refresh(st.Snapshot(), b.query, b.sort, b.env, b.onlyDrifted)
			got := b.AllRows()
			if !slices.Equal(got, ref.rows) {
				t.Fatalf("seed %d step %d: rows differ\nboard: %d rows\nfull:  %d rows", seed, step, len(got), len(ref.rows))
			}
			if b.cursor != ref.cursor || b.offset != ref.offset || b.sel != ref.sel || b.hasSel != ref.hasSel {
				t.Fatalf("seed %d step %d: cursor %d offset %d on %v (%v); full refresh: %d %d on %v (%v)",
					seed, step, b.cursor, b.offset, b.sel, b.hasSel, ref.cursor, ref.offset, ref.sel, ref.hasSel)
			}
			if b.want != ref.want || b.ident != ref.ident {
				t.Fatalf("seed %d step %d: widths %v ident %v; full refresh: %v %v", seed, step, b.want, b.ident, ref.want, ref.ident)
			}
		}
	}
}

// TestBoardFollowsWithoutRebuilding: snapshots that change a few rows are
// applied change by change; only a new sort re-reads every row.
func TestBoardFollowsWithoutRebuilding(t *testing.T) {
	st := store.New()
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		st.Upsert(churnRow(rnd))
	}
	b := New(keymap.Map{})
	b.SetHeight(20, 0)
	b.SetSnapshot(st.Snapshot())
	for range 100 {
		st.Upsert(churnRow(rnd))
		b.SetSnapshot(st.Snapshot())
	}
	if b.rebuilds != 1 {
		t.Fatalf("100 one-row snapshots rebuilt the view %d times, want once (the first)", b.rebuilds)
	}
	b.CycleSort()
	if b.rebuilds != 2 {
		t.Fatalf("a new sort must rebuild the view (rebuilds %d)", b.rebuilds)
	}
}
