package ui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/board"
)

// headerDelay is how stale the header's figures may get when a snapshot
// changed nothing else on screen (a row far off screen): at most one frame
// per headerDelay for such changes, while a change to a shown row, the
// cursor or a cluster's state is drawn at once. Any frame drawn meanwhile
// carries the fresh header, so under a churn that keeps changing shown rows
// the header never costs a frame of its own.
const headerDelay = time.Second

// headerDueMsg ends a deferral (at is when its timer fired): the header is
// drawn afresh unless a frame drawn since the deferral already showed it.
type headerDueMsg struct{ at time.Time }

// frameCache is the last frame drawn and what it showed besides the
// header's figures (counts, rows shown, the update time).
type frameCache struct {
	view  tea.View
	valid bool
	due   bool // a headerDueMsg is on its way
	// staleSince is when the first snapshot not yet drawn arrived (zero:
	// the frame on screen shows the latest snapshot's header).
	staleSince time.Time
	shown      shownState
}

// headerDue arms the header's timer for d.
func headerDue(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(at time.Time) tea.Msg { return headerDueMsg{at: at} })
}

// shownState is what a snapshot may change on screen, besides the header's
// figures.
type shownState struct {
	table    board.Shown // the visible rows, cursor, scroll and columns
	clusters []model.ClusterState
	releases model.ReleaseChecks
	status   statusLine
}

func (m *Model) shownNow() shownState {
	s := shownState{table: m.board.Shown(), status: m.status}
	if snap := m.board.Snap(); snap != nil {
		s.clusters, s.releases = snap.Clusters, snap.Releases
	}
	return s
}

// same reports whether a shows what b does; sameRow tells a replaced row
// that looks the same.
func (a shownState) same(b shownState, sameRow func(was, now *model.AppView) bool) bool {
	return a.table.Same(b.table, sameRow) && a.status == b.status && a.releases == b.releases &&
		slices.EqualFunc(a.clusters, b.clusters, func(x, y model.ClusterState) bool {
			return x.Name == y.Name && x.Phase == y.Phase && x.Since.Equal(y.Since) && x.Reason == y.Reason &&
				slices.Equal(x.Notices, y.Notices)
		})
}

// sameLine: a replaced row on screen draws as it did (no restart of it in
// flight turns a spinner).
func (m *Model) sameLine(was, now *model.AppView) bool {
	return m.inflight[now.Key()] == nil && m.board.SameLine(was, now, &m.st, m.width)
}

// plainBoard is the board alone on screen, nothing in progress: where a
// snapshot can change only rows, cursor, clusters and the header.
func (m *Model) plainBoard() bool {
	return m.screen == screenBoard && m.dialogs.Top() == nil && len(m.inflight) == 0 && !m.filter.Active()
}

// afterUpdate decides whether the frame must be drawn again: always, except
// after a snapshot that changed only the header's figures on a plain board;
// then the header catches up within headerDelay.
func (m *Model) afterUpdate(msg tea.Msg, wasPlain bool) tea.Cmd {
	if due, ok := msg.(headerDueMsg); ok {
		m.frame.due = false
		switch since := m.frame.staleSince; {
		case since.IsZero(): // a frame drawn meanwhile showed it
		case due.at.Sub(since) < headerDelay: // stale again since that frame: not for long yet
			m.frame.due = true
			return headerDue(headerDelay - due.at.Sub(since))
		default:
			m.frame.valid = false
		}
		return nil
	}
	_, snap := msg.(snapshotMsg)
	if !snap || !wasPlain || !m.plainBoard() || !m.frame.valid {
		m.frame.valid = false
		return nil
	}
	if m.shownNow().same(m.frame.shown, m.sameLine) {
		if m.frame.staleSince.IsZero() {
			m.frame.staleSince = m.snapAt
		}
		if m.frame.due {
			return nil
		}
		m.frame.due = true
		return headerDue(headerDelay)
	}
	m.frame.valid = false
	return nil
}
