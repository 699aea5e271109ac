//go:build !unix

package modeltest

import (
	"testing"
	"time"
)

func ReportCPU(*testing.B) func() { return func() {} }

// ProcessCPU is 0 where the process's CPU time is not read.
func ProcessCPU() time.Duration { return 0 }
