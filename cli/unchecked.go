package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// warnUncheckedReleases says on stderr which rows wait on a release check,
// by state, and why checks are starved; it returns how many rows wait.
func warnUncheckedReleases(w io.Writer, rows []*model.AppView, rc model.ReleaseChecks, now time.Time) int {
	byState := map[model.ReleaseState]int{}
	n := 0
	for _, r := range rows {
		if r.WaitsOnRelease() {
			byState[r.Release.State]++
			n++
		}
	}
	if n == 0 {
		if rc.Anonymous {
			fmt.Fprintln(w, "notice: GitHub release checks run anonymous (60 requests/hour): set GH_TOKEN or run gh auth login")
		}
		return 0
	}
	var parts []string
	for _, st := range slices.Sorted(maps.Keys(byState)) {
		parts = append(parts, fmt.Sprintf("%d %s", byState[st], st))
	}
	fmt.Fprintf(w, "warning: release checks incomplete: %d of %d rows wait on release checks (%s); their no-release, zero-assets and stale flags are withheld\n",
		n, len(rows), strings.Join(parts, ", "))
	switch {
	case now.Before(rc.LimitedUntil):
		fmt.Fprintf(w, "warning: GitHub rate-limited until %s\n", rc.LimitedUntil.Local().Format("15:04"))
	case rc.Anonymous:
		fmt.Fprintln(w, "warning: GitHub release checks run anonymous (60 requests/hour): set GH_TOKEN or run gh auth login")
	}
	return n
}
