//go:build unix

package model

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds cpu-ns/op: process CPU time per op. On this shared 2-core
// machine wall time swings with other builds; CPU time is the steadier figure.
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64((processCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
