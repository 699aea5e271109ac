package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/ui/dialog"
)

// openJump is ":": the prompt starts on the filter applied, or on the e
// key's env.
func (m *Model) openJump() tea.Cmd {
	current := m.filter.Text()
	if current == "" && m.board.Env() != "" {
		current = "env:" + string(m.board.Env())
	}
	d, focus := dialog.NewJump(m.board.Snap(), m.opts.SavedFilters, current, &m.st, m.keys)
	m.dialogs.Push(d)
	return focus
}

// actionMenu lists what can be done to the selected app, with the reason
// when an action is off.
func (m *Model) actionMenu() *dialog.Picker {
	r := m.board.Selected()
	if r == nil {
		return nil
	}
	restart := m.keys.Restart.Help().Key + " · asks first"
	if why := m.refusal(r); why != "" {
		restart = m.keys.Restart.Help().Key + " · not allowed: " + why
	}
	items := []dialog.PickItem{
		{Label: "Rolling restart…", Hint: restart, Act: dialog.OpenRestart{}},
		{Label: "Open detail", Hint: m.keys.Detail.Help().Key, Act: dialog.OpenDetail{}},
		{Label: "Logs of its pods", Hint: m.keys.Logs.Help().Key + " · read-only", Act: dialog.OpenLogs{}},
	}
	if m.identity != nil {
		label := "Log in again"
		if m.ident.SwitchesUser {
			label = "Switch the demo's user"
		}
		items = append(items, dialog.PickItem{Label: label, Hint: m.keys.Login.Help().Key, Act: dialog.StartLogin{}})
	}
	return dialog.NewPicker("Actions on "+r.Namespace+"/"+r.App, items, 0, m.keys)
}

// perform does what dialog d asked for. The pickers' choices close the
// picker first, so what they open goes on top.
func (m *Model) perform(d dialog.Dialog, act dialog.Action) tea.Cmd {
	switch a := act.(type) {
	case dialog.Close:
		m.dialogs.Remove(d)
		if a.Status != "" {
			m.status = statusLine{text: a.Status}
		}
	case dialog.CancelLogin:
		if l, ok := d.(*dialog.Login); ok {
			l.Cancel()
		}
		m.dialogs.Remove(d)
		if a.Status != "" {
			m.status = statusLine{text: a.Status}
		}
	case dialog.Restart:
		return m.fireRestart(a.D)
	case dialog.RestartSet:
		return m.runSet(a.D)
	case dialog.PlanPromotion:
		return m.planPromotion(a.D)
	case dialog.ProposePromotion:
		return m.proposePromotion(a.D)
	case dialog.MergePromotion:
		return m.mergePromotion(a.D)
	case dialog.SyncPromotion:
		return m.syncPromotion(a.D)
	case dialog.Quit:
		return m.quit()
	case dialog.OpenRestart:
		m.dialogs.Remove(d)
		return m.openRestart(m.board.Selected())
	case dialog.OpenDetail:
		m.dialogs.Remove(d)
		return m.openDetail()
	case dialog.StartLogin:
		m.dialogs.Remove(d)
		return m.startLogin()
	case dialog.PickLog:
		m.dialogs.Remove(d)
		return m.logs.Start(a.Pod, a.Container)
	case dialog.Pick:
		m.dialogs.Remove(d)
		m.dialogs.Push(a.P)
	case dialog.OpenLogs:
		m.dialogs.Remove(d)
		return m.openLogs(m.board.Selected())
	case dialog.ApplyFilter:
		m.dialogs.Remove(d)
		m.filter.Set(a.Query)
		if m.filter.Err() != nil {
			m.status = statusLine{text: "saved filter is invalid: " + m.filter.Err().Error(), bad: true}
			m.filter.Close(true)
			return nil
		}
		m.applyFilter()
		if a.Jump {
			m.board.SetEnv(a.Env)
		}
		if a.Env != "" {
			m.status = statusLine{text: "env: " + string(a.Env)}
			return nil
		}
		m.status = statusLine{text: "filter: " + a.Query}
	}
	return nil
}
