package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// helpKeyBlocks lays the full help's key groups side by side while they fit
// width and starts a new block below when they do not, so no group is cut
// on a narrow terminal.
func (m *Model) helpKeyBlocks(width int) []string {
	var rows []string
	var line []string
	lineWidth := 0
	flush := func() {
		if len(line) > 0 {
			rows = append(rows, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, line...), "\n")...)
			line, lineWidth = nil, 0
		}
	}
	sep := m.help.FullSeparator
	for _, group := range m.keys.FullHelp() {
		g := m.help.FullHelpView([][]key.Binding{group})
		gw := lipgloss.Width(g)
		add := gw
		if len(line) > 0 {
			add += format.TextWidth(sep)
		}
		if len(line) > 0 && lineWidth+add > width {
			flush()
			rows = append(rows, "")
			add = gw
		}
		if len(line) > 0 {
			line = append(line, sep)
		}
		line = append(line, g)
		lineWidth += add
	}
	flush()
	return rows
}

// helpLegend is the reading guide under the keys: a bold label, then its
// text wrapped to width under a hanging indent.
func (m *Model) helpLegend(width int) []string {
	st := &m.st
	const indent = 10
	entries := []struct{ label, text string }{
		{"Severity", styles.MarkLabel(model.MarkRed) + " · " + styles.MarkLabel(model.MarkYellow) + " · " + styles.MarkLabel(model.MarkOK) + " · " + styles.MarkLabel(model.MarkUnknown) +
			" (the whole row: drift, health, workload, problems; ? something not observed)  (dim rows with health \"offline\": cluster watch down)"},
		{"Flags", "FD floating-declared · FR floating-running · ST stale (declared ≠ latest release) · UR un-rolled · NR no-release · ZA zero-assets · ! a problem (the detail says which)"},
		{"", "NR? release not checked yet: its flags are withheld (the detail says why and since when)"},
		{"Tags", "DECLARED→RUNNING; one tag when both agree"},
		{"Rollout", "ready/desired · 1/2 ↻ TAG rolling out to TAG · stuck · paused · restarting (just asked) · pending (not listed yet) · unreadable (forbidden) · no workload · none (by design)"},
		{"Health", "green · yellow · red · syncing (workload not listed yet) · offline (cluster watch down) · ? unknown"},
		{"Marks", "› the selected row · • marked for a set restart (space, *)"},
		{"Query", "free text (fuzzy: exact name first, then prefix, then the rest) · app:iam (the name exactly; globs) · sev:red,yellow,? (or ✖,▲) · env:main · ns:tenant-* · flag:unrolled (or UR) · health:red,offline · rollout:stuck · release:none · has:problems,unknown · git:out · cluster: · role: · org: · -term negates · terms AND"},
		{"Git", "GIT (Hanzo CD): ok synced · out git declares something else · - not managed · ? unknown (the detail says why)"},
	}
	var out []string
	pad := strings.Repeat(" ", indent)
	for _, e := range entries {
		for i, l := range wrapAtSpaces(e.text, width-indent) {
			if i == 0 {
				out = append(out, st.Bold.Render(e.label)+strings.Repeat(" ", indent-format.TextWidth(e.label))+l)
				continue
			}
			out = append(out, pad+l)
		}
	}
	return out
}

// wrapAtSpaces wraps s to width at spaces only (ansi.Wordwrap also breaks at
// hyphens, which splits "zero-assets"); a word longer than width stays whole.
func wrapAtSpaces(s string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case format.TextWidth(line)+1+format.TextWidth(word) <= width:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	return append(out, line)
}
