package cli

import (
	"os"
	"runtime/debug"
)

// steadyGCPercent is the GC's target once the board is synced: the heap may
// grow 50 % over what is live before a collection (Go's default is 100 %).
// Measured at 10,000 Apps and 20 App patches a second (live heap ~50 MB):
// 50 % held ~10 MiB less RSS after churn than 100 % for a collection every
// ~15 s instead of ~28 s (each marks in ~20–40 ms of CPU; since Apps are
// parsed once, churn allocates far less and collects less often still);
// 25 % held no less RSS than 50 %, what remains being the start's peak.
// The start keeps the default: a higher target there saved ~0.7 s of the
// start's CPU but scattered the live data over a heap twice as large, and
// the RSS after sync stayed 30–40 MiB higher (the spans could not be
// returned). A soft memory limit is not used: a fixed one thrashes a large
// fleet, and one kept relative to the live heap is this same ratio, re-set
// by hand after each change of the live heap.
const steadyGCPercent = 50

// useSteadyGC sets the steady state's GC target, unless the process was
// given one with GOGC (the runtime's own setting, so the real environment).
func useSteadyGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(steadyGCPercent)
	}
}
