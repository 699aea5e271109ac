//go:build unix

package ui

import (
	"syscall"
	"time"
)

// processCPU is the process's user+system CPU time; false where it cannot be
// read, so a benchmark reports no CPU figure rather than a zero one.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
