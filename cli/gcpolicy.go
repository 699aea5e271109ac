package cli

import (
	"os"
	"runtime/debug"
)

// steadyGCPercent is the GC's target once the board is synced: the heap may
// grow 50 % over what is live before a collection (Go's default is 100 %).
// Measured on a 10,000-App fleet at 20 App patches a second, the board then
// collects every ~15 s instead of every ~28 s (a ~52 MB live heap marks in
// ~20–40 ms of CPU) and holds ~10 MiB less RSS. The start keeps the
// default: a higher target there saved ~0.7 s of the start's CPU but
// scattered the live data over a heap twice as large, and the RSS after
// sync stayed 30–40 MiB higher (the spans could not be returned). A soft
// memory limit is not used: a fixed one thrashes a large fleet, and one
// kept relative to the live heap is this same ratio, re-set by hand.
const steadyGCPercent = 50

// useSteadyGC sets the steady state's GC target, unless the process was
// given one with GOGC (the runtime's own setting, so the real environment).
func useSteadyGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(steadyGCPercent)
	}
}
