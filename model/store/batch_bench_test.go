package store

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// firstSyncRows is n rows in the random order a sync's dirty set yields.
func firstSyncRows(n int) []model.AppView {
	rows := make([]model.AppView, n)
	for i, j := range rand.New(rand.NewPCG(1, 1)).Perm(n) {
		rows[i] = model.AppView{Cluster: "c", Namespace: fmt.Sprintf("ns%02d", j%50), App: fmt.Sprintf("svc-%06d", j)}
	}
	return rows
}

// BenchmarkFirstSync stores a first sync's rows one by one and in one batch
// (one lock and one version); each row is O(log n) in the store's tree, so
// the cost per row stays nearly flat as n grows.
func BenchmarkFirstSync(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		rows := firstSyncRows(n)
		b.Run(fmt.Sprintf("one-by-one/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				s := New()
				for _, v := range rows {
					s.Upsert(v)
				}
			}
		})
		b.Run(fmt.Sprintf("batch/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				New().UpsertMany(append([]model.AppView(nil), rows...))
			}
		})
	}
}
