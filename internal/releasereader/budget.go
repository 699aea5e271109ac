package releasereader

import "time"

// rateWindow is GitHub's primary rate-limit window.
const rateWindow = time.Hour

// spacingLocked is how far apart passes of GitHub checks may be so that the
// rate budget left lasts until it resets: the configured interval, or longer
// when a pass at that pace would spend more than is left. It is set after a
// pass (and when the window resets) and holds until the next, so passes stay
// evenly spread as the budget shrinks. Every request is counted although an
// authorized 304 is free: the budget is shared with the user's other tools,
// and a changed release costs in full.
func (r *Reader) spacingLocked(now time.Time, checks int) time.Duration {
	base := r.opts.Interval
	if r.rate.Limit <= 0 || checks == 0 {
		return base // no rate headers seen yet (or Enterprise without limits)
	}
	remaining, left := r.rate.Remaining, r.rate.Reset.Sub(now)
	if left <= 0 { // the window has reset since the last answer: full again
		remaining, left = r.rate.Limit, rateWindow
	}
	if remaining <= checks {
		// Not one more whole pass: what is left goes to the oldest answers
		// and the rest waits for the reset, when the budget is whole again.
		return max(base, left)
	}
	return max(base, time.Duration(int64(left)*int64(checks)/int64(remaining)))
}

// updateSpacingLocked recomputes the spacing after a pass that asked GitHub,
// when the window has reset, or the first time.
func (r *Reader) updateSpacingLocked(now time.Time, checks int, afterPass bool) {
	windowReset := r.rate.Limit > 0 && !now.Before(r.rate.Reset.Time)
	if afterPass || windowReset || r.gitHubSpacing == 0 {
		r.gitHubSpacing = r.spacingLocked(now, checks)
	}
}
