package cli

import (
	"os"
	"runtime"
	"testing"
)

// TestSteadyProcsKeepsTheUsersGOMAXPROCS: once synced the board runs on one
// core, unless the process was started with GOMAXPROCS, which it leaves
// alone.
func TestSteadyProcsKeepsTheUsersGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	if v, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Cleanup(func() { os.Setenv("GOMAXPROCS", v) })
	}

	runtime.GOMAXPROCS(2)
	os.Unsetenv("GOMAXPROCS")
	useSteadyProcs()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("without GOMAXPROCS the synced board runs on %d cores, want 1", got)
	}

	runtime.GOMAXPROCS(2)
	t.Setenv("GOMAXPROCS", "2")
	useSteadyProcs()
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("with GOMAXPROCS=2 the board changed it to %d", got)
	}
}
