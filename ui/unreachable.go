package ui

import (
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// emptyWords is what an empty table says before any row arrived: which
// clusters are unreachable (or failed) and whether they are retried, so a
// cluster being retried does not read as one that has no apps.
func emptyWords(s *model.Snapshot, now time.Time) string {
	if s == nil {
		return "no apps yet"
	}
	var down []string
	for _, c := range s.Clusters {
		if c.Phase != model.ConnFailed {
			continue
		}
		w := safe(c.Name) + " failed"
		if c.Unreachable {
			w = safe(c.Name) + " is unreachable"
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
