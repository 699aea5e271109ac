//go:build unix

package modeltest

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU adds cpu-ns/op: process CPU time per op. On this shared 2-core
// machine wall time swings with other builds; CPU time is the steadier figure.
func ReportCPU(b *testing.B) func() {
	start := ProcessCPU()
	return func() {
		b.ReportMetric(float64((ProcessCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// ProcessCPU is the CPU time the process used so far, user and system.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
