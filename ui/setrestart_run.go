package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// defaultSetLimit is how many restarts of a set run at once unless
// Options.SetRestartLimit says otherwise.
const defaultSetLimit = 3

type (
	setCheckedMsg struct {
		d   *dialog.SetRestart
		chk restart.Checked
	}
	setProgressMsg struct {
		d  *dialog.SetRestart
		u  restart.Update
		ch <-chan tea.Msg
	}
	setDoneMsg struct {
		d   *dialog.SetRestart
		sum restart.Summary
	}
)

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
	var cmds []tea.Cmd
	for _, r := range rows {
		if why := m.refusal(r); why != "" {
			d.Refuse(r, why)
			continue
		}
		cmds = append(cmds, checkSetRow(m.ctx, m.fleet, d, r))
	}
	if focus := d.Await(len(cmds)); len(cmds) == 0 {
		return focus
	}
	return tea.Batch(append(cmds, m.startSpinner())...)
}

func checkSetRow(ctx context.Context, r Restarter, d *dialog.SetRestart, row *model.AppView) tea.Cmd {
	return func() tea.Msg {
		chk, _ := r.Check(ctx, restart.CheckInput{Row: row}) // a refusal is in chk.Decision
		return setCheckedMsg{d: d, chk: chk}
	}
}

// runSet starts the confirmed set: the use case restarts each row bound to
// its own check, holding each slot until its rollout ends; its updates come
// back one message at a time through a channel. Quitting cancels m.ctx, so
// nothing new starts.
func (m *Model) runSet(d *dialog.SetRestart) tea.Cmd {
	ch := make(chan tea.Msg, 16)
	r := m.fleet
	for _, k := range d.Allowed() {
		m.inflight[k] = &inflight{key: k, started: m.now(), prevRestart: m.rowRestartedAt(k)}
	}
	in := d.Input(func(u restart.Update) { ch <- setProgressMsg{d: d, u: u, ch: ch} })
	go func() {
		out, _ := r.RestartSet(m.ctx, in) // the summary says what an error would
		ch <- setDoneMsg{d: d, sum: out.Summary}
		close(ch)
	}()
	return tea.Batch(waitSet(ch), m.startSpinner())
}

func waitSet(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

func (m *Model) rowRestartedAt(k model.Key) string {
	if r := m.board.Find(k); r != nil {
		return r.Workload.RestartedAt
	}
	return ""
}

func (m *Model) onSetMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case setCheckedMsg:
		if dialog.Find[*dialog.SetRestart](m.dialogs) != msg.d {
			return nil
		}
		return msg.d.Checked(msg.chk)
	case setProgressMsg:
		msg.d.Progress(msg.u)
		switch msg.u.Status {
		case restart.Failed, restart.NotStarted:
			delete(m.inflight, msg.u.Key)
		case restart.Done:
			if f := m.inflight[msg.u.Key]; f != nil {
				f.requested = true // the board follows its rollout like a single restart's
			}
		}
		return waitSet(msg.ch)
	case setDoneMsg:
		text, bad := msg.d.Done(msg.sum)
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
