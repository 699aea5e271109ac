package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/logs"
)

// LogReader lists an App's pods and streams one container's log; the logs
// component draws them. Reading is not an action: read-only mode keeps it.
type LogReader = logs.Reader

// DefaultLogLines is how many log lines the view keeps (Options.LogLines).
const DefaultLogLines = logs.DefaultLines

func (m *Model) logLines() int {
	if m.opts.LogLines > 0 {
		return m.opts.LogLines
	}
	return DefaultLogLines
}

// openLogs shows row r's pods' logs over the current screen.
func (m *Model) openLogs(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	m.logs.Stop()
	var cmd tea.Cmd
	m.logs, cmd = logs.Open(m.ctx, m.fleet, r.Key(), m.logLines(), m.keys, m.logs)
	m.logsFrom, m.screen = m.screen, screenLogs
	return cmd
}

// onLogs hands the view its message and does what it asks.
func (m *Model) onLogs(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(logs.PodsMsg); ok && m.screen != screenLogs {
		return nil
	}
	var cmd tea.Cmd
	var act logs.Action
	m.logs, cmd, act = m.logs.Update(msg)
	switch a := act.(type) {
	case logs.Back:
		m.screen = m.logsFrom
	case logs.Help:
		m.openHelp()
	case logs.Pick:
		m.dialogs.Push(m.logPicker(a))
	}
	return cmd
}

// logPicker offers every pod and container, the cursor on the current (or
// default) one.
func (m *Model) logPicker(pick logs.Pick) *dialog.Picker {
	k := m.logs.Key()
	var items []dialog.PickItem
	cursor := 0
	for i, c := range pick.Choices {
		items = append(items, dialog.PickItem{Label: c.Pod + " · " + c.Container, Hint: c.Hint, Act: dialog.PickLog{Pod: c.Pod, Container: c.Container}})
		if c.Pod == pick.Pod && c.Container == pick.Container {
			cursor = i
		}
	}
	return dialog.NewPicker("Logs of "+k.Namespace+"/"+k.Name+": pod and container", items, cursor, m.keys)
}

func (m *Model) renderLogs(sb *strings.Builder, w int) {
	sb.WriteString(m.titleLine(w))
	sb.WriteByte('\n')
	m.logs.Render(sb, &m.st, w, m.statusBar(w), m.status.text == "")
}
