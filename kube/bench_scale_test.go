//go:build unix

package kube

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model/store"
)

// BenchmarkColdBuild builds and stores every row of a cold fleet once (what
// a sync's rows cost once their caches are complete) at 10,000, 30,000 and 50,000
// rows, to show how the cost of a row grows with the fleet (the B-trees'
// depth, the caches outgrowing the CPU's): ns/row and cpu-ns/row (process
// CPU, the GC's included; steadier on a shared machine).
func BenchmarkColdBuild(b *testing.B) {
	for _, n := range []int{10_000, 30_000, 50_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f, keys := benchFleet(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			for b.Loop() {
				f.store = store.New()
				f.markDirtyKeys(keys)
				if s := f.Snapshot(); s.Len() != n {
					b.Fatalf("%d rows", s.Len())
				}
			}
			perRow := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / float64(n) }
			b.ReportMetric(perRow(b.Elapsed()), "ns/row")
			b.ReportMetric(perRow(processCPU()-cpu0), "cpu-ns/row")
		})
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
