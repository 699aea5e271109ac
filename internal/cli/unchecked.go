package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// warnUncheckedReleases says on stderr which rows wait on a release check,
// by state, and how release checks run when that is not the full truth (off,
// anonymous, rate-limited, starved); it returns how many rows' release
// flags are unchecked (all of them while checks are off). The exit code
// reads the rows' verdicts, not this count.
func warnUncheckedReleases(w io.Writer, rows []*model.AppView, rc model.ReleaseChecks, now time.Time) int {
	byState := map[model.ReleaseState]int{}
	n := 0
	for _, r := range rows {
		if r.WaitsOnRelease() {
			byState[r.Release.State]++
			n++
		}
	}
	if rc.Off {
		fmt.Fprintln(w, "notice: release checks are off: no-release, zero-assets and stale are not checked")
		// No row waits, but none was checked either: every declared tag is
		// unchecked.
		for _, r := range rows {
			if r.DeclaredTag != "" && !r.Release.Checked() {
				n++
			}
		}
		return n
	}
	level := "notice"
	if n > 0 {
		level = "Warning"
		var parts []string
		for _, st := range slices.Sorted(maps.Keys(byState)) {
			parts = append(parts, fmt.Sprintf("%d %s", byState[st], st))
		}
		fmt.Fprintf(w, "Warning: release checks incomplete: %d of %d rows wait on release checks (%s); their no-release, zero-assets and stale flags are withheld\n",
			n, len(rows), strings.Join(parts, ", "))
	}
	if rc.Failing != "" {
		checks := "1 check"
		if rc.FailingChecks != 1 {
			checks = fmt.Sprintf("%d checks", rc.FailingChecks)
		}
		if !rc.NextTry.IsZero() {
			checks += ", next try " + rc.NextTry.Local().Format("15:04")
		}
		fmt.Fprintf(w, "Warning: release checks failing: %s (%s)\n", termtext.Sanitize(rc.Failing), checks)
	}
	limited := now.Before(rc.LimitedUntil)
	switch {
	case limited:
		fmt.Fprintf(w, "%s: GitHub rate-limited until %s\n", level, rc.LimitedUntil.Local().Format("15:04"))
	case rc.Anonymous:
		fmt.Fprintf(w, "%s: GitHub release checks run anonymous (60 requests/hour): set GH_TOKEN or run gh auth login\n", level)
	}
	if rc.Starved && !limited {
		every := time.Duration(rc.RefreshSeconds) * time.Second
		fmt.Fprintf(w, "notice: GitHub's rate budget left allows a release refresh only every %s (starved)\n", every)
	}
	return n
}

// warnUnreadableWorkloads says on stderr how many rows' workloads this
// identity may not read (their running tag, and the flags that need it, are
// unknown) and returns that count.
func warnUnreadableWorkloads(w io.Writer, rows []*model.AppView) int {
	n := 0
	for _, r := range rows {
		if r.Workload.Unreadable != "" {
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "Warning: %d of %d rows' workloads may not be read: their running tag, un-rolled and floating-running are unknown\n", n, len(rows))
	}
	return n
}
