package releasereader

import "time"

// failingLocked reports the checks of the pairs shown whose last try
// failed: how many, the latest failure's words, and when the first of them
// is tried again (as plan schedules it).
func (r *Reader) failingLocked(now time.Time) (n int, why string, next time.Time) {
	seen := map[string]bool{}
	var latest time.Time
	var latestKey string
	for p, s := range r.wanted {
		for _, t := range r.targetsLocked(p, s) {
			k := t.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			a, ok := r.answers[k]
			if !ok || a.Err == "" {
				continue
			}
			n++
			if a.ErrAt.After(latest) || a.ErrAt.Equal(latest) && (latestKey == "" || k < latestKey) {
				latest, latestKey, why = a.ErrAt, k, a.Err
			}
			interval := r.opts.Interval
			if t.isGitHub() {
				interval = max(r.gitHubSpacing, interval)
			}
			at := r.dueAtLocked(k, interval)
			if t.isGitHub() && now.Before(r.blockedUntil) && at.Before(r.blockedUntil) {
				at = r.blockedUntil
			}
			if next.IsZero() || at.Before(next) {
				next = at
			}
		}
	}
	return n, why, next
}
