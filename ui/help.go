package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
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
		{"Flags", wordLegend(model.FlagWords, func(w model.Word[drift.DriftKind]) string { return w.Name }, flagNotes) + " · ! a problem (the detail says which)"},
		{"", "NR? release not checked yet: its flags are withheld (the detail says why and since when)"},
		{"Tags", "DECLARED→RUNNING; one tag when both agree"},
		{"Rollout", "ready/desired · 1/2 ↻ TAG rolling out to TAG · stuck · paused · restarting (just asked) · pending (not listed yet) · unreadable (forbidden) · no workload · none (by design)"},
		{"Health", "green · yellow · red · syncing (workload not listed yet) · offline (cluster watch down) · ? unknown"},
		{"Marks", "› the selected row · • marked for a set restart (space, *)"},
		{"Query", queryLegend()},
		{"Sort", m.keys.Sort.Help().Key + " goes through " + strings.Join(boardWords(query.SortWords), " → ")},
		{"Git", "GIT (Hanzo CD): " + wordLegend(model.GitStateWords, func(w model.Word[model.GitState]) string { return gitNotes[w.Value] }, nil)},
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
// hyphens, which splits "zero-assets"); a word longer than width breaks
// after its commas (a query key's list of values), else stays whole.
func wrapAtSpaces(s string, width int) []string {
	var out []string
	line := ""
	put := func(word, sep string) {
		switch {
		case line == "":
			line = word
		case format.TextWidth(line)+len(sep)+format.TextWidth(word) <= width:
			line += sep + word
		default:
			out = append(out, line)
			line = word
		}
	}
	for _, word := range strings.Fields(s) {
		if format.TextWidth(word) <= width || !strings.Contains(word, ",") {
			put(word, " ")
			continue
		}
		sep := " "
		for _, part := range strings.SplitAfter(word, ",") {
			put(part, sep)
			sep = "" // the values of one key read on
		}
	}
	return append(out, line)
}

// queryLegend is the query language in brief: each closed key with every
// value it takes, and the printed forms it takes back, from the tables the
// parser reads, so a value added there is in help at once.
func queryLegend() string {
	closed := func(key string) string { return key + ":" + strings.Join(query.KeyValues(key), ",") }
	printed := func(key string, names, board []string) string {
		return key + ":" + strings.Join(names, ",") + " (or " + strings.Join(board, ",") + ")"
	}
	return strings.Join([]string{
		"free text (fuzzy: exact name first, then prefix, then the rest)",
		"app:iam (the name exactly; globs)",
		printed("sev", model.MarkWords.Names(), boardWords(model.MarkWords)),
		closed("env"),
		"ns:tenant-*",
		printed("flag", model.FlagWords.Names(), boardWords(model.FlagWords)),
		"health:" + strings.Join(model.HealthWords.Names(), ","),
		closed("rollout"), closed("release"), closed("has"),
		printed("git", model.GitStateWords.Names(), boardWords(model.GitStateWords)),
		"cluster: · role: · org: (globs)",
		"values joined by , match any · -term negates · terms AND",
	}, " · ")
}

// boardWords are a table's words as the board shows them.
func boardWords[T comparable](words model.Words[T]) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w.Board
	}
	return out
}

// The legend's notes: what a word means where its name alone does not say.
var (
	flagNotes = map[drift.DriftKind]string{drift.DriftStale: "declared ≠ latest release"}
	gitNotes  = map[model.GitState]string{
		model.GitSynced:     "synced",
		model.GitOutOfSync:  "git declares something else",
		model.GitNotManaged: "not managed",
		model.GitUnknown:    "unknown (the detail says why)",
	}
)

// wordLegend reads a word table as the board shows it: each value's board
// word, then what says it, then its note in brackets; so a value added to
// the table is in help the moment it can be on screen.
func wordLegend[T comparable](words model.Words[T], says func(model.Word[T]) string, notes map[T]string) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		part := w.Board + " " + says(w)
		if n := notes[w.Value]; n != "" {
			part += " (" + n + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ")
}
