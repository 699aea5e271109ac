package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

// clockTickMsg redraws a frame whose relative times would read differently
// now ("token 52m left", "unresponsive since 14:00:05 (40s)", the detail's
// ages): nothing else redraws a quiet board, and a countdown frozen on
// screen says more than was observed. It also takes a plain notice off the
// status line when its time is up (status.go). gen tells a superseded tick.
type clockTickMsg struct{ gen uint64 }

// clockState is the one tick armed, if any.
type clockState struct {
	at  time.Time // when the armed tick fires; zero: none armed
	gen uint64
}

// clockSlack lands a tick just after the boundary it waits for.
const clockSlack = 10 * time.Millisecond

// armClock arms a tick for the next moment a relative time on screen
// changes, unless one that fires no later is armed already. A frame that
// shows no relative time arms none: an idle board stays idle.
func (m *Model) armClock() tea.Cmd {
	now := m.now()
	d := m.clockNext(now)
	if d <= 0 {
		return nil
	}
	at := now.Add(d + clockSlack)
	if !m.clock.at.IsZero() && !at.Before(m.clock.at) {
		return nil
	}
	m.clock.gen++
	m.clock.at = at
	gen := m.clock.gen
	return tea.Tick(d+clockSlack, func(time.Time) tea.Msg { return clockTickMsg{gen: gen} })
}

// onClockTick clears the armed tick it ends; Update then redraws the frame
// and arms the next.
func (m *Model) onClockTick(msg clockTickMsg) {
	if msg.gen == m.clock.gen {
		m.clock.at = time.Time{}
	}
}

// clockNext is how long until a relative time on screen next reads
// differently; zero when the screen shows none.
func (m *Model) clockNext(now time.Time) time.Duration {
	var next time.Duration
	soonest := func(d time.Duration) {
		if d > 0 && (next == 0 || d < next) {
			next = d
		}
	}
	if m.width < minWidth || m.height < minHeight {
		return 0
	}
	if m.identKnown && !m.ident.Expiry.IsZero() && m.ident.Expiry.After(now) {
		soonest(untilChange(m.ident.Expiry.Sub(now), false)) // "token 52m left"
	}
	if s := m.board.Snap(); s != nil {
		for _, c := range s.Clusters {
			if (c.Phase == model.ConnReconnecting || c.Phase == model.ConnUnresponsive) && !c.Since.IsZero() {
				soonest(untilChange(now.Sub(c.Since), true)) // "since 14:00:05 (40s)"
			}
			if c.Phase == model.ConnFailed && c.Attempt > 0 && c.RetryAt.After(now) {
				soonest(untilChange(c.RetryAt.Sub(now), false)) // "retrying (attempt 3, next in 4s)"
			}
		}
	}
	if m.screen == screenDetail {
		soonest(time.Second) // drifting since, last restart and Events carry ages
	}
	soonest(m.statusNext(now)) // a notice goes by itself (status.go)
	return next
}

// untilChange is how long until duration d, written as shortDuration
// writes it (seconds under 10 minutes, minutes under 8 hours, then hours),
// reads differently as it grows or shrinks.
func untilChange(d time.Duration, growing bool) time.Duration {
	if d < 0 {
		d = -d
	}
	unit := time.Hour
	switch {
	case d < 10*time.Minute:
		unit = time.Second
	case d < 8*time.Hour:
		unit = time.Minute
	}
	r := d % unit
	if growing {
		return unit - r
	}
	if r == 0 {
		return unit
	}
	return r
}
