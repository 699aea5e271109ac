package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// expected is what one snapshot must show for as long as it lives.
type expected struct {
	snap *Snapshot
	rows map[model.Key]*model.AppView
}

// check compares a snapshot with the rows it was taken with, through every
// way of reading it (Len, Find, All, Rows), read for the first time after
// later changes to the store.
func (e expected) check(t *testing.T, at string) {
	t.Helper()
	want := slices.SortedFunc(maps.Keys(e.rows), model.Key.Compare)
	if e.snap.Len() != len(want) {
		t.Fatalf("%s: snapshot v%d has %d rows, want %d", at, e.snap.Version, e.snap.Len(), len(want))
	}
	for k, r := range e.rows {
		if got := e.snap.Find(k); got != r {
			t.Fatalf("%s: snapshot v%d finds %v as %p, want %p", at, e.snap.Version, k, got, r)
		}
	}
	if got := e.snap.Find(model.Key{Cluster: "c9", Namespace: "absent", Name: "x"}); got != nil {
		t.Fatalf("%s: snapshot v%d finds an absent row", at, e.snap.Version)
	}
	var order []model.Key
	for r := range e.snap.All() {
		order = append(order, r.Key())
	}
	if !slices.Equal(order, want) {
		t.Fatalf("%s: snapshot v%d yields %v, want %v", at, e.snap.Version, order, want)
	}
	if got := modeltest.KeysOf(e.snap.Rows()); !slices.Equal(got, want) {
		t.Fatalf("%s: snapshot v%d Rows %v, want %v", at, e.snap.Version, got, want)
	}
	if e.snap.Summary.Total != len(want) {
		t.Fatalf("%s: snapshot v%d total %d, want %d", at, e.snap.Version, e.snap.Summary.Total, len(want))
	}
}

// TestSnapshotsAreImmutable drives a store with random upserts, batches,
// deletes and offline marks, keeps every snapshot with the rows it held
// then (a reference map), and reads each old snapshot only at the end: a
// snapshot that shared the store's mutable rows would show later changes.
func TestSnapshotsAreImmutable(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		st := New()
		ref := map[model.Key]model.AppView{} // what the store should hold, kept apart from it
		offline := map[string]bool{}
		upsert := func(v model.AppView) {
			v.Offline = offline[v.Cluster]
			ref[v.Key()] = v
		}
		var kept []expected
		for step := range 200 {
			switch op := rnd.IntN(10); {
			case op < 4:
				v := modeltest.RandomRow(rnd)
				st.Upsert(v)
				upsert(v)
			case op < 6:
				batch := make([]model.AppView, rnd.IntN(40))
				for i := range batch {
					batch[i] = modeltest.RandomRow(rnd)
					upsert(batch[i])
				}
				st.UpsertMany(batch)
			case op < 9:
				k := model.Key{Cluster: fmt.Sprintf("c%d", rnd.IntN(3)), Namespace: fmt.Sprintf("ns%d", rnd.IntN(4)), Name: fmt.Sprintf("a%d", rnd.IntN(12))}
				st.Delete(k)
				delete(ref, k)
			default:
				c, off := fmt.Sprintf("c%d", rnd.IntN(3)), rnd.IntN(2) == 0
				st.SetOffline(c, off)
				offline[c] = off
				for k, v := range ref {
					if k.Cluster == c {
						v.Offline = off
						ref[k] = v
					}
				}
			}
			snap := st.Snapshot()
			held := map[model.Key]*model.AppView{}
			for k, want := range ref {
				got := snap.Find(k)
				if got == nil || got.Offline != want.Offline || got.Drift.Severity != want.Drift.Severity || got.Env != want.Env {
					t.Fatalf("seed %d step %d: %v is %+v, want %+v", seed, step, k, got, want)
				}
				held[k] = got
			}
			if step%3 == 0 { // read again only at the end
				kept = append(kept, expected{snap: snap, rows: held})
			}
		}
		for _, e := range kept {
			e.check(t, fmt.Sprintf("seed %d", seed))
		}
	}
}

// TestSnapshotAllocatesConstant: taking a snapshot of a large store allocates a constant
// amount, not a copy of every row pointer.
func TestSnapshotAllocatesConstant(t *testing.T) {
	st := New()
	batch := make([]model.AppView, 20000)
	for i := range batch {
		batch[i] = model.AppView{Cluster: "c", Namespace: "ns", App: fmt.Sprintf("a%05d", i)}
	}
	st.UpsertMany(batch)
	bytes := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for n := range b.N {
			st.Upsert(batch[n%len(batch)])
			_ = st.Snapshot()
		}
	}).AllocedBytesPerOp()
	if bytes > 20000 { // a clone of the row pointers alone is 160,000 bytes
		t.Errorf("an upsert and a snapshot of 20,000 rows allocate %d bytes: O(n)", bytes)
	}
}
