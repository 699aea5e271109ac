package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestUpsertManyIsUpsertOneByOne: a batch leaves the store exactly as the
// same upserts one at a time would (rows, order, counts, offline marks,
// newest observation), including keys repeated within a batch.
func TestUpsertManyIsUpsertOneByOne(t *testing.T) {
	for seed := range uint64(50) {
		rnd := rand.New(rand.NewPCG(seed, 3))
		one, many := NewStore(), NewStore()
		for step := range 30 {
			if rnd.IntN(5) == 0 {
				c := fmt.Sprintf("c%d", rnd.IntN(3))
				off := rnd.IntN(2) == 0
				one.SetOffline(c, off)
				many.SetOffline(c, off)
			}
			batch := make([]AppView, rnd.IntN(20))
			for i := range batch {
				batch[i] = randomRow(rnd)
			}
			for _, v := range batch {
				one.Upsert(v)
			}
			many.UpsertMany(batch)
			a, b := one.Snapshot(), many.Snapshot()
			if !reflect.DeepEqual(a.Rows(), b.Rows()) || !reflect.DeepEqual(a.Summary, b.Summary) || !a.TakenAt.Equal(b.TakenAt) {
				t.Fatalf("seed %d step %d: batch differs from one by one\none:  %v %+v\nmany: %v %+v",
					seed, step, keysOf(a.Rows()), a.Summary, keysOf(b.Rows()), b.Summary)
			}
		}
	}
}
