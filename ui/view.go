package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/board"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/terminal"
)

// Minimum usable terminal size; below it the board says so instead of
// drawing garbage.
const (
	minWidth  = 60
	minHeight = 10
)

// View renders the whole frame full-screen with mouse wheel reporting.
// A frame is drawn again only when Update said it changed (frame.go).
func (m *Model) View() tea.View {
	if m.frame.valid {
		return m.frame.view
	}
	v := tea.NewView(terminal.Tidy(m.guard(m.render())))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "driftboard"
	m.frame.view, m.frame.valid, m.frame.shown = v, true, m.shownNow()
	m.frame.staleSince = time.Time{}
	return v
}

func (m *Model) render() string {
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return ""
	}
	if w < minWidth || h < minHeight {
		msg := fmt.Sprintf("terminal too small (%dx%d), need %dx%d", w, h, minWidth, minHeight)
		// Wrapped where it then fits: cut at the edge, the size it needs was
		// the part lost; a terminal too low for that keeps it on one line.
		if wrapped := ansi.Wrap(msg, w, ""); strings.Count(wrapped, "\n") < h {
			msg = wrapped
		}
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, m.st.WarnText.Render(msg))
	}
	var sb strings.Builder
	sb.Grow(w * h * 2)
	switch m.screen {
	case screenDetail:
		m.renderDetail(&sb, w, h)
	case screenHelp:
		m.renderHelp(&sb, w, h)
	case screenYAML:
		m.renderYAML(&sb, w, h)
	case screenLogs:
		m.renderLogs(&sb, w)
	default:
		m.renderBoard(&sb, w, h)
	}
	frame := sb.String()
	if d := m.dialogs.Top(); d != nil {
		box := d.Render(&m.st, w, m.spin.View())
		frame = strings.Join(format.Overlay(strings.Split(frame, "\n"), box, w), "\n")
	}
	return frame
}

// guard is the last line of defence over a composed frame: values were
// sanitised where they were written, and whatever slipped through still
// cannot move the cursor, set the clipboard or draw images; only the
// board's own SGR styling stays, and none at all without colour.
func (m *Model) guard(frame string) string {
	frame = termtext.SanitizeStyled(frame)
	if m.plain {
		frame = ansi.Strip(frame)
	}
	return frame
}

func (m *Model) renderBoard(sb *strings.Builder, w, h int) {
	sb.WriteString(m.titleLine(w))
	sb.WriteByte('\n')
	sb.WriteString(m.summaryLine(w))
	sb.WriteByte('\n')
	var d board.Decor
	if m.board.RowCount() == 0 {
		d.Empty = emptyWords(m.board.Snap(), m.now())
	}
	if len(m.inflight) > 0 { // only rows with a restart in flight show it
		d.Spinner = m.spin.View()
		d.Restarts = make(map[model.Key]board.Restart, len(m.inflight))
		for k, f := range m.inflight {
			d.Restarts[k] = board.Restart{SawProgress: f.sawProgress}
		}
	}
	m.board.Render(sb, &m.st, w, m.tableHeight(), d)
	sb.WriteByte('\n')
	sb.WriteString(m.statusBar(w))
	sb.WriteByte('\n')
	sb.WriteString(m.helpLine.text) // laid out in Update
}

func (m *Model) renderHelp(sb *strings.Builder, w, h int) {
	lines := m.helpLines(w)
	body, scrolls := h, len(lines) > h
	if scrolls { // the last row says there is more and how to reach it
		body = h - 1
	}
	top := min(m.helpTop, max(0, len(lines)-body))
	for i := 0; i < body; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		line := ""
		if j := top + i; j < len(lines) {
			line = " " + lines[j]
		}
		sb.WriteString(format.FitLine(line, w))
	}
	if scrolls {
		k := m.keys
		hint := fmt.Sprintf("%s/%s back · ↑/↓ scroll · %d/%d", k.Quit.Help().Key, k.Back.Help().Key, top+1, len(lines)-body+1)
		sb.WriteByte('\n')
		sb.WriteString(format.FitLine(m.st.Dim.Render(hint), w))
	}
}

// helpLines is the whole help screen at width w: keys, legend, the way back.
func (m *Model) helpLines(w int) []string {
	st := &m.st
	lines := []string{st.Title.Render("driftboard — keys"), ""}
	// Inside the one-column margin: keys, then the legend, both fitted to w.
	lines = append(lines, m.helpKeyBlocks(w-2)...)
	lines = append(lines, "")
	lines = append(lines, m.helpLegend(w-2)...)
	return append(lines,
		"", st.Dim.Render(m.keys.Quit.Help().Key+", "+m.keys.Back.Help().Key+" or "+m.keys.Help.Help().Key+" to go back"))
}
