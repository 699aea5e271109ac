package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// defaultSetLimit is how many restarts of a set run at once unless
// Options.SetRestartLimit says otherwise.
const defaultSetLimit = 3

// openSetRestart is R: one dialog for every marked row, checked first.
func (m *Model) openSetRestart() tea.Cmd {
	rows := m.board.MarkedRows()
	if len(rows) == 0 {
		m.status = statusLine{text: "no rows marked — space marks a row, * every shown row"}
		return nil
	}
	limit := m.opts.SetRestartLimit
	if limit <= 0 {
		limit = defaultSetLimit
	}
	d := dialog.NewSetRestart(rows, m.user(), limit, &m.st, m.keys)
	m.dialogs.Push(d)
	var check []*model.AppView
	for _, r := range rows {
		if why := m.refusal(r); why != "" {
			d.Refuse(r, why)
			continue
		}
		check = append(check, r)
	}
	return tea.Batch(d.CheckRows(m.ctx, m.fleet, check), m.startSpinner()) // none to check: it asks at once
}

// runSet starts the confirmed set, each allowed row in flight until the use
// case says how it ended. Quitting cancels m.ctx, so nothing new starts.
func (m *Model) runSet(d *dialog.SetRestart) tea.Cmd {
	for _, k := range d.Allowed() {
		m.inflight[k] = &inflight{key: k, started: m.now(), prevRestart: m.rowRestartedAt(k)}
	}
	return tea.Batch(d.Run(m.ctx, m.fleet), m.startSpinner())
}

func (m *Model) rowRestartedAt(k model.Key) string {
	if r := m.board.Find(k); r != nil {
		return r.Workload.RestartedAt
	}
	return ""
}

func (m *Model) onSetMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case dialog.SetCheckedMsg:
		return msg.Apply(m.dialogs)
	case dialog.SetProgressMsg:
		u, next := msg.Apply()
		switch u.Status {
		case restart.Failed, restart.NotStarted:
			delete(m.inflight, u.Key)
		case restart.Done:
			if f := m.inflight[u.Key]; f != nil {
				f.requested = true // the board follows its rollout like a single restart's
			}
		}
		return next
	case dialog.SetDoneMsg:
		text, bad := msg.Apply()
		m.board.ClearMarks()
		m.status = statusLine{text: text, bad: bad}
	}
	return nil
}

// QuitReport says what a set restart had done when the board ended while it
// was running: quitting cancels the run, so nothing new starts, and the
// person who quit must still learn which apps were restarted, which were
// still rolling and which never started. "" when no set restart was
// running. Read it after the program returns (Run writes it to
// Options.ExitReport).
func (m *Model) QuitReport() string {
	for _, d := range m.dialogs {
		if sd, ok := d.(*dialog.SetRestart); ok && sd.Phase() == dialog.SetRunning {
			return sd.QuitReport()
		}
	}
	return ""
}
