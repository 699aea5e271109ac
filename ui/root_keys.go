package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/ui/dialog"
)

// onKey routes a key press to whatever has focus: dialogs first, then the
// query line, then the current screen.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	if key.Matches(msg, m.keys.Suspend) {
		return tea.Suspend // the shell's fg brings the board back
	}
	if d := m.dialogs.Top(); d != nil {
		act, cmd := d.Update(msg)
		return tea.Batch(cmd, m.perform(d, act))
	}
	if m.filter.Active() {
		return m.filterKey(msg)
	}
	switch m.screen {
	case screenHelp:
		m.helpKey(msg)
		return nil
	case screenDetail:
		return m.onDetail(msg)
	case screenYAML:
		return m.yamlKey(msg)
	case screenLogs:
		return m.onLogs(msg)
	}
	return m.boardKey(msg)
}

func (m *Model) boardKey(msg tea.KeyPressMsg) tea.Cmd {
	b := &m.board
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case b.Handles(msg):
		*b, _ = b.Update(msg)
	case key.Matches(msg, k.Filter):
		return m.filter.Open()
	case key.Matches(msg, k.Back):
		m.clearFilters()
	case key.Matches(msg, k.NextProblem), key.Matches(msg, k.PrevProblem):
		dir := 1
		if key.Matches(msg, k.PrevProblem) {
			dir = -1
		}
		if !b.JumpProblem(dir) {
			m.status = statusLine{text: "no red, yellow or ! rows in view"}
		}
	case key.Matches(msg, k.Saved):
		if len(m.opts.SavedFilters) == 0 {
			m.noSavedFilters()
			return nil
		}
		m.dialogs.Push(dialog.NewSavedPicker(m.opts.SavedFilters, m.filter.Text(), m.keys))
	case key.Matches(msg, k.Copy):
		return m.copyRow(b.Selected())
	case key.Matches(msg, k.Open):
		return m.openRelease(b.Selected())
	case key.Matches(msg, k.YAML):
		return m.openYAML(b.Selected())
	case key.Matches(msg, k.Logs):
		return m.openLogs(b.Selected())
	case key.Matches(msg, k.Jump):
		return m.openJump()
	case key.Matches(msg, k.Actions):
		if p := m.actionMenu(); p != nil {
			m.dialogs.Push(p)
		}
	case key.Matches(msg, k.Detail):
		return m.openDetail()
	case key.Matches(msg, k.Restart):
		return m.openRestart(b.Selected())
	case key.Matches(msg, k.Mark):
		if !b.ToggleMark() {
			m.status = statusLine{text: "no app selected"}
		}
	case key.Matches(msg, k.MarkAll):
		m.status = statusLine{text: b.MarkAllShown()}
	case key.Matches(msg, k.RestartSet):
		return m.openSetRestart()
	case key.Matches(msg, k.Promote):
		return m.openPromote()
	case key.Matches(msg, k.PromoteMerge):
		return m.openPromoteStep(dialog.StepMerge)
	case key.Matches(msg, k.PromoteSync):
		return m.openPromoteStep(dialog.StepSync)
	case key.Matches(msg, k.Login):
		return m.startLogin()
	case key.Matches(msg, k.Help):
		m.openHelp()
	}
	return nil
}

// openHelp shows full help over the current screen, from its top; back
// returns to it.
func (m *Model) openHelp() {
	m.helpFrom, m.screen, m.helpTop = m.screen, screenHelp, 0
}

// helpKey: q and esc go back, as in k9s and less (q quits only from the
// board); the scrolling keys move help where it is taller than the screen.
func (m *Model) helpKey(msg tea.KeyPressMsg) {
	k := m.keys
	page := max(1, m.height-2)
	switch {
	case key.Matches(msg, k.Help, k.Back, k.Quit):
		m.screen = m.helpFrom
	case key.Matches(msg, k.Up):
		m.scrollHelp(-1)
	case key.Matches(msg, k.Down):
		m.scrollHelp(1)
	case k.Paging(msg):
		m.scrollHelp(k.PageStep(msg, page))
	case key.Matches(msg, k.Home):
		m.scrollHelp(-m.helpTop)
	case key.Matches(msg, k.End):
		m.scrollHelp(len(m.helpLines(m.width)))
	}
}

// scrollHelp moves help by n lines, no further than its end.
func (m *Model) scrollHelp(n int) {
	last := max(0, len(m.helpLines(m.width))-(m.height-1)) // the top line that shows the end
	m.helpTop = max(0, min(m.helpTop+n, last))
}

// clearFilters is esc on the board: drop the query and the quick toggles.
func (m *Model) clearFilters() {
	b := &m.board
	if m.filter.Text() == "" && b.Env() == "" && !b.OnlyDrifted() {
		m.status = statusLine{}
		return
	}
	m.filter.Close(false)
	m.applyFilter()
	b.ClearToggles()
	m.status = statusLine{text: "filters cleared"}
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.filter.Close(false)
		m.applyFilter()
		return nil
	case "enter":
		m.filter.Close(true)
		m.applyFilter()
		return nil
	case "up", "down", "pgup", "pgdown":
		return m.boardKey(msg) // move the selection while typing
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	m.applyFilter()
	return cmd
}

// onMouse sends wheel and clicks to the screen in front, not under a dialog.
func (m *Model) onMouse(msg tea.Msg) tea.Cmd {
	if m.dialogs.Top() != nil {
		return nil
	}
	var cmd tea.Cmd
	switch m.screen {
	case screenDetail:
		cmd = m.onDetail(msg)
	case screenBoard:
		m.board, cmd = m.board.Update(msg)
	case screenHelp:
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			m.scrollHelp(map[bool]int{true: -3, false: 3}[w.Mouse().Button == tea.MouseWheelUp])
		}
	case screenLogs:
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			m.logs.Scroll(map[bool]int{true: -3, false: 3}[w.Mouse().Button == tea.MouseWheelUp])
		}
	}
	return cmd
}
