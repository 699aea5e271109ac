package cli

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestSteadyGCKeepsTheUsersGOGC: once synced the board collects at 50 %
// growth, unless the process was started with GOGC, which it leaves alone.
func TestSteadyGCKeepsTheUsersGOGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	if v, set := os.LookupEnv("GOGC"); set {
		t.Cleanup(func() { os.Setenv("GOGC", v) })
	}

	os.Unsetenv("GOGC")
	useSteadyGC()
	if got := debug.SetGCPercent(100); got != steadyGCPercent {
		t.Errorf("without GOGC the steady GC target is %d %%, want %d %%", got, steadyGCPercent)
	}

	t.Setenv("GOGC", "100")
	useSteadyGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 the board changed the GC target to %d %%", got)
	}
}
