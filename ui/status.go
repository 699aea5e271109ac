package ui

import "time"

// noticeLife is how long a plain notice ("filters cleared", "copied …")
// stays, as k9s flashes its own: long enough to read a line, short enough
// that it never reads as the state of things minutes later.
const noticeLife = 5 * time.Second

// expires reports whether the line goes by itself: errors and lines the user
// must act on stay until the next message or esc on the board.
func (s statusLine) expires() bool { return s.text != "" && !s.bad && !s.keep }

// ageStatus dates a message the first time it is on screen and drops a
// notice whose time is up. The clock (clock.go) arms one tick for that
// moment, and only while such a notice is shown. A notice that arrives
// behind the help, a dialog or a filter being typed (a rollout's outcome)
// waits there: it would otherwise go unread.
func (m *Model) ageStatus(now time.Time) {
	switch {
	case m.status.text == "":
	case m.status.shown.IsZero():
		if m.statusOnScreen() {
			m.status.shown = now
		}
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

// statusOnScreen reports whether the frame shows the status line: the help
// screen, a dialog over the frame, a filter or a log search being typed (or
// their error), and a terminal too small to draw take its place.
func (m *Model) statusOnScreen() bool {
	switch {
	case m.width < minWidth || m.height < minHeight:
		return false
	case m.screen == screenHelp || m.dialogs.Top() != nil:
		return false
	case m.filter.Active() || m.filter.Err() != nil:
		return false
	case m.screen == screenLogs && m.logs.Searching():
		return false
	}
	return true
}
