package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// TestUpsertManyIsUpsertOneByOne: a batch leaves the store exactly as the
// same upserts one at a time would (rows, order, counts, offline marks,
// newest observation), including keys repeated within a batch.
func TestUpsertManyIsUpsertOneByOne(t *testing.T) {
	for seed := range uint64(50) {
		rnd := rand.New(rand.NewPCG(seed, 3))
		one, many := New(), New()
		for step := range 30 {
			if rnd.IntN(5) == 0 {
				c := fmt.Sprintf("c%d", rnd.IntN(3))
				off := rnd.IntN(2) == 0
				one.SetOffline(c, off)
				many.SetOffline(c, off)
			}
			batch := make([]model.AppView, rnd.IntN(20))
			for i := range batch {
				batch[i] = modeltest.RandomRow(rnd)
			}
			for _, v := range batch {
				one.Upsert(v)
			}
			many.UpsertMany(batch)
			a, b := one.Snapshot(), many.Snapshot()
			if !reflect.DeepEqual(a.Rows(), b.Rows()) || !reflect.DeepEqual(a.Summary, b.Summary) || !a.TakenAt.Equal(b.TakenAt) {
				t.Fatalf("seed %d step %d: batch differs from one by one\none:  %v %+v\nmany: %v %+v",
					seed, step, modeltest.KeysOf(a.Rows()), a.Summary, modeltest.KeysOf(b.Rows()), b.Summary)
			}
		}
	}
}

// TestUpsertManyKeepsNoBatch: the store copies a batch's rows, so a caller
// may reuse its slice, and a replaced row is freed even while the rows
// stored with it stay current (rows kept inside one batch array would keep
// every replaced row of the batch alive).
func TestUpsertManyKeepsNoBatch(t *testing.T) {
	s := New()
	defer runtime.KeepAlive(s) // the store and its current rows stay live throughout
	batch := make([]model.AppView, 100)
	for i := range batch {
		batch[i] = model.AppView{Cluster: "c", Namespace: "ns", App: fmt.Sprintf("a%03d", i), Phase: "Running"}
	}
	s.UpsertMany(batch)
	batch[1].Phase = "reused by the caller"
	if got := s.Snapshot().Find(model.Key{Cluster: "c", Namespace: "ns", Name: "a001"}).Phase; got != "Running" {
		t.Fatalf("the caller's later write shows in the store: phase %q", got)
	}
	freed := make(chan struct{})
	first := s.Snapshot().Find(model.Key{Cluster: "c", Namespace: "ns", Name: "a000"})
	runtime.SetFinalizer(first, func(*model.AppView) { close(freed) })
	first = nil
	s.Upsert(model.AppView{Cluster: "c", Namespace: "ns", App: "a000", Phase: "Updated"}) // a001 … a099 stay current
	s.Snapshot()
	for deadline := time.Now().Add(5 * time.Second); ; {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("a replaced row is still reachable while the rows of its batch stay current")
		}
	}
}
