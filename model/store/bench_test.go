package store

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

func benchStore(b *testing.B) (*Store, []model.AppView) {
	b.Helper()
	in := modeltest.BenchFleet()
	s := New()
	views := make([]model.AppView, len(in))
	for i, x := range in {
		views[i] = model.Build(x.App, x.Workload, x.Release, modeltest.T0)
		s.Upsert(views[i])
	}
	return s, views
}

func BenchmarkSnapshot(b *testing.B) {
	b.Run("unchanged", func(b *testing.B) {
		s, _ := benchStore(b)
		s.Snapshot()
		b.ReportAllocs()
		done := modeltest.ReportCPU(b)
		for b.Loop() {
			_ = s.Snapshot()
		}
		done()
	})
	b.Run("upsert+snapshot", func(b *testing.B) {
		s, views := benchStore(b)
		b.ReportAllocs()
		done := modeltest.ReportCPU(b)
		for i := 0; b.Loop(); i++ {
			s.Upsert(views[i%len(views)])
			_ = s.Snapshot()
		}
		done()
	})
}
