package detail

import (
	"fmt"
	"sort"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// releaseWords says what the release reader said, with its notes (a failed
// refresh, a rate limit holding back an old answer) and, for an unchecked
// release, since when.
func releaseWords(rel model.Release, now time.Time) string {
	var s string
	switch rel.State {
	case model.ReleaseOff:
		return "checks off"
	case model.ReleasePending, "":
		s = "not read yet"
	case model.ReleaseNone:
		s = "checked: none found for the declared tag"
	case model.ReleaseRateLimited:
		s = "not read: rate-limited by GitHub"
	case model.ReleaseError:
		s = "not read: the check failed"
	case model.ReleaseNotLooked:
		s = "not looked up"
	default:
		s = fmt.Sprintf("checked: found (%d assets)", rel.Assets)
	}
	if rel.Unknown() && !rel.Since.IsZero() {
		s += " (since " + format.Clock(rel.Since, now) + ")"
	}
	if rel.Detail != "" {
		s += " — " + rel.Detail
	}
	return s
}

func restartWords(at, by string, now time.Time) string {
	s := at
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		s = format.Clock(t, now) + " (" + format.ShortDuration(now.Sub(t)) + " ago)"
	}
	if by != "" {
		s += " by " + by
	}
	return s
}

func labelLines(labels map[string]string, width int) []string {
	if len(labels) == 0 {
		return []string{"none"}
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, format.Wrap(format.Safe(k+"="+labels[k]), width)...)
	}
	return out
}
