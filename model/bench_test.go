package model_test

import (
	"strings"
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

func BenchmarkParseImage(b *testing.B) {
	ref := "ghcr.io/hanzoai/iam:v1.2.3@sha256:" + strings.Repeat("ab", 32)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = model.ParseImage(ref)
	}
}
