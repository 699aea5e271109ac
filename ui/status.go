package ui

import "time"

// noticeLife is how long a plain notice ("filters cleared", "copied …")
// stays, as k9s flashes its own: long enough to read a line, short enough
// that it never reads as the state of things minutes later.
const noticeLife = 5 * time.Second

// expires reports whether the line goes by itself: errors and lines the user
// must act on stay until the next message or esc on the board.
func (s statusLine) expires() bool { return s.text != "" && !s.bad && !s.keep }

// ageStatus dates a message the first time an Update sees it and drops a
// notice whose time is up. The clock (clock.go) arms one tick for that
// moment, and only while such a notice is shown.
func (m *Model) ageStatus(now time.Time) {
	switch {
	case m.status.text == "":
	case m.status.shown.IsZero():
		m.status.shown = now
	case m.status.expires() && !now.Before(m.status.shown.Add(noticeLife)):
		m.status = statusLine{}
	}
}

// statusNext is how long until the shown notice goes; zero when none will.
func (m *Model) statusNext(now time.Time) time.Duration {
	if !m.status.expires() || m.status.shown.IsZero() {
		return 0
	}
	return max(m.status.shown.Add(noticeLife).Sub(now), time.Nanosecond)
}
