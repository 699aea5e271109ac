package query

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
	"github.com/hanzoai/driftboard/model/store"
)

// viewQueries are filters the differential tests switch between.
var viewQueries = []string{"", "sev:red,yellow", "a1", "ns:ns1", "-cluster:c0", "health:offline", "env:main"}

// reference is the straightforward view: filter and sort everything.
func reference(snap *store.Snapshot, q Query, by SortKey, keep func(*model.AppView) bool) []*model.AppView {
	rows := Select(snap.Rows(), q, by)
	return slices.DeleteFunc(rows, func(r *model.AppView) bool { return keep != nil && !keep(r) })
}

// checkView compares the view with the reference, row by row and through
// At, Index and Range.
func checkView(t *testing.T, step int, v *View, snap *store.Snapshot, q Query, by SortKey, keep func(*model.AppView) bool) {
	t.Helper()
	want := reference(snap, q, by, keep)
	got := v.Rows()
	if !slices.Equal(got, want) {
		t.Fatalf("step %d (query %q, sort %s): view has %d rows, filter+sort %d\nview: %v\nwant: %v",
			step, q, by, len(got), len(want), modeltest.KeysOf(got), modeltest.KeysOf(want))
	}
	if v.Len() != len(want) {
		t.Fatalf("step %d: Len %d, want %d", step, v.Len(), len(want))
	}
	for i, r := range want {
		if v.At(i) != r {
			t.Fatalf("step %d: At(%d) = %v, want %v", step, i, v.At(i).Key(), r.Key())
		}
		if j, ok := v.Index(r.Key()); !ok || j != i {
			t.Fatalf("step %d: Index(%v) = %d, %v; want %d", step, r.Key(), j, ok, i)
		}
	}
	for _, r := range snap.Rows() {
		if _, ok := v.Index(r.Key()); ok != slices.Contains(want, r) {
			t.Fatalf("step %d: Index(%v) says in view = %v", step, r.Key(), ok)
		}
	}
}

// runViewDifferential drives a store and a view with random changes from
// seed and checks the view against filter+sort after every sync.
func runViewDifferential(t *testing.T, seed uint64, steps int) {
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	st := store.NewTrimming(1 + rnd.IntN(40)) // trims happen within the run
	q, by := viewQuery(t, ""), SortKey(0)
	var keep func(*model.AppView) bool
	v := NewView(q, by, keep)
	shown := map[*model.AppView]int{} // the view's rows as its changes tell them
	for step := range steps {
		switch op := rnd.IntN(100); {
		case op < 45:
			st.Upsert(modeltest.RandomRow(rnd))
		case op < 55: // a batch, as a sync delivers them
			batch := make([]model.AppView, rnd.IntN(8))
			for i := range batch {
				batch[i] = modeltest.RandomRow(rnd)
			}
			st.UpsertMany(batch)
		case op < 75:
			r := modeltest.RandomRow(rnd)
			st.Delete(r.Key())
		case op < 80:
			st.SetOffline(fmt.Sprintf("c%d", rnd.IntN(3)), rnd.IntN(2) == 0)
		case op < 84:
			st = store.NewTrimming(1 + rnd.IntN(40)) // a reconnect: a new store, the same view
		case op < 90: // a new filter, sort or extra filter: a new view
			q = viewQuery(t, viewQueries[rnd.IntN(len(viewQueries))])
			by = SortKey(rnd.IntN(len(SortWords)))
			keep = nil
			if rnd.IntN(2) == 0 {
				keep = func(r *model.AppView) bool { return r.Drift.Severity != drift.SeverityOK }
			}
			v = NewView(q, by, keep)
		}
		// Snapshots are often skipped, and sometimes for a long run (the
		// view falls behind the journal's trims).
		if rnd.IntN(3) == 0 || (step/60)%4 == 3 {
			continue
		}
		changes, rebuilt := v.Sync(st.Snapshot())
		checkView(t, step, v, st.Snapshot(), q, by, keep)
		checkChanges(t, step, v, shown, changes, rebuilt)
	}
}

// checkChanges applies a sync's changes to shown (what a figure kept over
// the view's rows counts) and compares it with the view: each row leaves
// once and enters once, so shown never counts a row twice or lacks one.
func checkChanges(t *testing.T, step int, v *View, shown map[*model.AppView]int, changes []ViewChange, rebuilt bool) {
	t.Helper()
	if rebuilt {
		clear(shown)
		for _, r := range v.Rows() {
			shown[r]++
		}
		return
	}
	for _, c := range changes {
		if c.Old != nil {
			if shown[c.Old]--; shown[c.Old] == 0 {
				delete(shown, c.Old)
			}
		}
		if c.New != nil {
			shown[c.New]++
		}
	}
	want := map[*model.AppView]int{}
	for _, r := range v.Rows() {
		want[r]++
	}
	if !maps.Equal(shown, want) {
		t.Fatalf("step %d: the changes tell %d rows (%v), the view holds %d", step, len(shown), shown, len(want))
	}
}

// viewQuery parses a query the test knows is valid.
func viewQuery(t *testing.T, s string) Query {
	t.Helper()
	q, err := Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return q
}

// TestViewMatchesFilterSort: the incremental view equals the full filter
// and sort after every random change sequence, with skipped snapshots,
// journal trims, store swaps and filter changes.
func TestViewMatchesFilterSort(t *testing.T) {
	for seed := range uint64(40) {
		runViewDifferential(t, seed, 400)
	}
}

func FuzzViewMatchesFilterSort(f *testing.F) {
	f.Add(uint64(1), uint16(300))
	f.Fuzz(func(t *testing.T, seed uint64, steps uint16) {
		runViewDifferential(t, seed, int(steps%1000))
	})
}

// TestViewFollowsChangeByChange: a sync after a few changes applies them
// (it does not rebuild) and reports each row that moved in or out.
func TestViewFollowsChangeByChange(t *testing.T) {
	st := store.New()
	for i := range 200 {
		st.Upsert(model.AppView{Cluster: "c", Namespace: "ns", App: fmt.Sprintf("a%03d", i)})
	}
	v := NewView(viewQuery(t, ""), SortName, nil)
	if _, rebuilt := v.Sync(st.Snapshot()); !rebuilt {
		t.Fatal("the first sync must read every row")
	}
	red := model.AppView{Cluster: "c", Namespace: "ns", App: "a007"}
	red.Drift.Severity = drift.SeverityRed
	st.Upsert(red)
	st.Delete(model.Key{Cluster: "c", Namespace: "ns", Name: "a008"})
	changes, rebuilt := v.Sync(st.Snapshot())
	if rebuilt || len(changes) != 2 {
		t.Fatalf("sync after two changes: rebuilt %v, %d changes; want 2 applied one by one", rebuilt, len(changes))
	}
	if changes[1].New != nil || changes[1].Old.App != "a008" {
		t.Fatalf("the delete is reported as %+v", changes[1])
	}
	if v.Len() != 199 {
		t.Fatalf("Len %d, want 199", v.Len())
	}
}

// TestViewRebuildsForABigBatch: a sync that brings a large share of the
// rows at once (a cluster's workloads listed after its Apps) re-reads every
// row, sorted and loaded in order, and gives the order filter+sort gives.
func TestViewRebuildsForABigBatch(t *testing.T) {
	st := store.New()
	rnd := rand.New(rand.NewPCG(3, 4))
	rows := make([]model.AppView, 2000)
	for i := range rows {
		rows[i] = model.AppView{Cluster: "c", Namespace: fmt.Sprintf("ns%d", i%7), App: fmt.Sprintf("a%04d", (i*7919)%2000)}
		rows[i].Workload.Pending = "Deployments not listed yet (cluster syncing)"
	}
	st.UpsertMany(rows)
	q := viewQuery(t, "")
	v := NewView(q, SortSeverity, nil)
	v.Sync(st.Snapshot())
	few := slices.Clone(rows[:10])
	for i := range few {
		few[i].Drift.Severity = drift.SeverityRed
	}
	st.UpsertMany(few)
	if _, rebuilt := v.Sync(st.Snapshot()); rebuilt {
		t.Fatal("10 changed rows of 2,000 must be applied one by one")
	}
	sevs := []drift.DriftSeverity{drift.SeverityOK, drift.SeverityYellow, drift.SeverityRed}
	for i := range rows {
		rows[i].Workload.Pending = ""
		rows[i].Drift.Severity = sevs[rnd.IntN(len(sevs))]
	}
	st.UpsertMany(rows)
	if _, rebuilt := v.Sync(st.Snapshot()); !rebuilt {
		t.Fatal("every row changed in one sync: the view must re-read them, not move each")
	}
	checkView(t, 0, v, st.Snapshot(), q, SortSeverity, nil)
}
