//go:build !unix

package ui

import "time"

// processCPU: no portable rusage here; benchmarks then report wall time only.
func processCPU() (time.Duration, bool) { return 0, false }
