package query

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
	"github.com/hanzoai/driftboard/model/store"
)

func BenchmarkSelect(b *testing.B) {
	s := store.New()
	for _, x := range modeltest.BenchFleet() {
		s.Upsert(model.Build(x.App, x.Workload, x.Release, modeltest.T0))
	}
	rows := s.Snapshot().Rows()
	for _, tc := range []struct{ name, q string }{
		{"all-by-severity", ""},
		{"text", "svc-0"},
		{"keys", "env:main,test -sev:ok ns:tenant-* flag:stale,unrolled"},
		{"text+keys", "hanzo/svc-1 health:green,yellow -flag:floating"},
	} {
		q, err := Parse(tc.q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			done := modeltest.ReportCPU(b)
			for b.Loop() {
				n = len(Select(rows, q, SortSeverity))
			}
			done()
			b.ReportMetric(float64(n), "rows")
		})
	}
}
