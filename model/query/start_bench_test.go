package query

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
	"github.com/hanzoai/driftboard/model/store"
)

// BenchmarkStartFollow is a board following a cluster's first sync, as the
// store and the view see it: every App streams in (in the API server's
// order, 200 rows a snapshot) with its workload pending, then the workload
// lists complete and every row is built again, in one snapshot. Per row it
// should cost the same at 10,000 and at 50,000 rows.
func BenchmarkStartFollow(b *testing.B) {
	for _, n := range []int{10_000, 30_000, 50_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pending, final := make([]model.AppView, n), make([]model.AppView, n)
			for i := range n {
				k := model.AppView{Cluster: "c", Namespace: fmt.Sprintf("ns%02d", i%50), App: fmt.Sprintf("svc-%06d", i)}
				pending[i], final[i] = k, k
				pending[i].Workload.Pending = "Deployments not listed yet (cluster syncing)"
				if i%7 == 0 {
					final[i].Drift.Severity = "red"
				}
			}
			// Stream order: by namespace, then name.
			order := make([]int, 0, n)
			for ns := range 50 {
				for i := ns; i < n; i += 50 {
					order = append(order, i)
				}
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			cpu0 := modeltest.ProcessCPU()
			for b.Loop() {
				s := store.New()
				v := NewView(Query{}, SortSeverity, nil)
				batch := make([]model.AppView, 0, 200)
				for j, i := range order {
					batch = append(batch, pending[i])
					if len(batch) == cap(batch) || j == n-1 {
						s.UpsertMany(batch)
						v.Sync(s.Snapshot())
						batch = batch[:0]
					}
				}
				s.UpsertMany(final)
				v.Sync(s.Snapshot())
				if v.Len() != n {
					b.Fatalf("%d rows in the view", v.Len())
				}
			}
			runtime.ReadMemStats(&m1)
			perRow := func(x float64) float64 { return x / float64(b.N) / float64(n) }
			b.ReportMetric(perRow(float64(b.Elapsed().Nanoseconds())), "ns/row")
			b.ReportMetric(perRow(float64((modeltest.ProcessCPU() - cpu0).Nanoseconds())), "cpu-ns/row") // the GC's too
			b.ReportMetric(perRow(float64(m1.Mallocs-m0.Mallocs)), "allocs/row")
			b.ReportMetric(perRow(float64(m1.TotalAlloc-m0.TotalAlloc)), "B/row")
		})
	}
}
