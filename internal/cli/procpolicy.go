package cli

import (
	"os"
	"runtime"
)

// useSteadyProcs runs the synced board on one core, unless the process was
// given GOMAXPROCS. What is left once the fleet is cached is a trickle of
// watch events and bubbletea's renderer waking 12 times a second; with a
// second P idle each wake-up also wakes a second thread to look for work.
// Measured at 10,000 Apps (board in a pty, 40–60 s idle phases on the
// shared fleet, runs disturbed by others' churn left out): context switches
// 66–83 → 46–50 a second, idle CPU 0.09–0.14 → 0.08–0.09 s a minute, churn
// (20 App patches a second) 1.35–1.53 → 1.23 s a minute. The start
// keeps every core: decoding the first lists is parallel work. A later
// re-list (after a reconnect) then decodes on one core, more slowly but
// with the rows on screen meanwhile.
func useSteadyProcs() {
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		runtime.GOMAXPROCS(1)
	}
}
