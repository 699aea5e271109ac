package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/format"
)

// emptyWords is what an empty table says before any row arrived: which
// clusters are unreachable (or failed) and whether they are retried, so a
// cluster being retried does not read as one that has no apps.
func emptyWords(s *store.Snapshot, now time.Time) string {
	if s == nil {
		return "no apps yet"
	}
	var down []string
	for _, c := range s.Clusters {
		if c.Phase != model.ConnFailed {
			continue
		}
		w := format.Safe(c.Name) + " failed"
		if c.Unreachable {
			w = format.Safe(c.Name) + " is unreachable"
		}
		if c.Attempt > 0 {
			w += " — " + c.RetryWords(now)
		}
		down = append(down, w)
	}
	if len(down) == 0 {
		return "no apps yet"
	}
	return strings.Join(down, "; ") + ": no apps read from it yet"
}

// releaseFailing: "release checks failing: <why> (6 rows wait, next try
// 14:05:10)", when the reader's last tries failed.
func releaseFailing(rc model.ReleaseChecks, waiting int, now time.Time) string {
	var in []string
	switch {
	case waiting == 1:
		in = append(in, "1 row waits")
	case waiting > 1:
		in = append(in, strconv.Itoa(waiting)+" rows wait")
	}
	switch {
	case rc.NextTry.IsZero():
	case rc.NextTry.After(now):
		in = append(in, "next try "+format.Clock(rc.NextTry, now))
	default:
		in = append(in, "trying again now")
	}
	w := "release checks failing: " + format.OneLine(rc.Failing)
	if len(in) > 0 {
		w += " (" + strings.Join(in, ", ") + ")"
	}
	return w
}
