package model_test

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

func BenchmarkBuild(b *testing.B) {
	in := modeltest.BenchFleet()
	b.ReportAllocs()
	done := modeltest.ReportCPU(b)
	for b.Loop() {
		for _, x := range in {
			_ = model.Build(x.App, x.Workload, x.Release, modeltest.T0)
		}
	}
	done()
}
