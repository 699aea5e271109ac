package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/format"
)

// refusal is why the board will not even ask about a restart, checked before
// calling the cluster: the use case's own refusal (read-only, what the row
// forbids), no identity, one in flight. "" means check.
func (m *Model) refusal(r *model.AppView) string {
	now := m.now()
	if why := m.fleet.Refusal(r); why != "" {
		return why
	}
	switch {
	case m.identity == nil:
		return "not logged in — read only"
	case !m.ident.LoggedIn(now):
		why := "not logged in"
		if m.ident.Err != nil {
			why = m.ident.Err.Error()
		} else if m.ident.Principal != nil {
			why = "session expired at " + format.Clock(m.ident.Expiry, now)
		}
		return why + " — press " + m.keys.Login.Help().Key + " to " + m.loginWords()
	}
	if f := m.inflight[r.Key()]; f != nil {
		return fmt.Sprintf("a restart of %s/%s is already in flight (since %s); wait for its rollout to finish",
			r.Namespace, r.App, format.Clock(f.started, now))
	}
	return ""
}

// openRestart opens the dialog for row r: refused at once, or checking with
// the Restarter (scope, RBAC) in a Cmd.
func (m *Model) openRestart(r *model.AppView) tea.Cmd {
	if r == nil {
		m.status = statusLine{text: "no app selected"}
		return nil
	}
	d := dialog.NewConfirm(r, m.user(), &m.st, m.keys)
	m.dialogs.Push(d)
	if why := m.refusal(r); why != "" {
		d.Refuse(why)
		return nil
	}
	d.Check()
	return tea.Batch(checkRestart(m.ctx, m.fleet, r), m.startSpinner())
}

func (m *Model) onChecked(msg checkedMsg) tea.Cmd {
	if m.screen == screenDetail && m.detail.Key() == msg.key {
		m.detail.SetDecision(msg.chk.Decision)
	}
	if d := dialog.Find[*dialog.Confirm](m.dialogs); d != nil && d.Key() == msg.key {
		return d.Checked(msg.chk)
	}
	return nil
}

// fireRestart sends the restart once; the in-flight entry guards against a
// second one until the rollout ends.
func (m *Model) fireRestart(d *dialog.Confirm) tea.Cmd {
	k := d.Key()
	if m.inflight[k] != nil {
		d.Refuse("a restart is already in flight")
		return nil
	}
	m.inflight[k] = &inflight{key: k, started: m.now(), prevRestart: d.Row().Workload.RestartedAt}
	return tea.Batch(doRestart(m.ctx, m.fleet, d.Send()), m.startSpinner())
}

func (m *Model) onRestarted(msg restartedMsg) tea.Cmd {
	name := msg.key.Namespace + "/" + msg.key.Name
	d := dialog.Find[*dialog.Confirm](m.dialogs)
	if msg.err != nil {
		delete(m.inflight, msg.key)
		m.status = statusLine{text: "restart of " + name + " failed: " + format.OneLine(msg.err.Error()), bad: true}
		if d != nil && d.Key() == msg.key {
			d.Failed(format.OneLine(msg.err.Error()))
		}
		return nil
	}
	var follow tea.Cmd
	if f := m.inflight[msg.key]; f != nil {
		f.requested = true
		f.observe(m.board.Find(msg.key))
		// stays while the rollout is followed: its outcome replaces it
		m.status = statusLine{text: "restart of " + name + " accepted — following the rollout", keep: true}
		follow = followRestart(m.ctx, m.fleet, msg.key)
	}
	if d != nil && d.Key() == msg.key {
		m.dialogs.Remove(d)
	}
	return follow
}

// onFollowed ends a single restart's following with the use case's verdict
// on its rollout (complete, stuck, gone, or not done in time).
func (m *Model) onFollowed(msg followedMsg) tea.Cmd {
	f := m.inflight[msg.key]
	if f == nil {
		return nil
	}
	delete(m.inflight, msg.key)
	name := msg.key.Namespace + "/" + msg.key.Name
	switch {
	case model.IsNotAvailable(msg.err): // the patch was accepted; its rollout cannot be followed here
		m.status = statusLine{text: "restart of " + name + " accepted; " + format.OneLine(msg.err.Error())}
		return nil
	case msg.err != nil:
		m.status = statusLine{text: "restart of " + name + ": " + format.OneLine(msg.err.Error()), bad: true}
		return nil
	}
	text := "restart of " + name + " complete"
	if r := m.board.Find(msg.key); r != nil {
		text += fmt.Sprintf(": %d/%d ready", r.Workload.Ready, r.Workload.Desired)
	}
	m.status = statusLine{text: text + " (" + format.ShortDuration(m.now().Sub(f.started)) + ")"}
	return nil
}
