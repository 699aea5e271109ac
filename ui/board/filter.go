package ui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// filterLine is the "/" query line: parsed on every keystroke; a valid query
// applies at once, an invalid one keeps the last good query and shows why.
type filterLine struct {
	input  textinput.Model
	active bool
	err    error
	// applied reports the query the board should use after an update.
	applied  query.Query
	changed  bool
	lastGood string
}

func newFilterLine(st *styles.Styles) filterLine {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "iam sev:red,yellow env:main ns:tenant-* -flag:stale (enter keeps, esc clears)"
	in.SetStyles(st.Input)
	in.CharLimit = 256
	return filterLine{input: in}
}

func (f *filterLine) setStyles(st *styles.Styles) { f.input.SetStyles(st.Input) }

// open focuses the line, keeping the current text.
func (f *filterLine) open() tea.Cmd {
	f.active = true
	f.input.CursorEnd()
	return f.input.Focus()
}

// close leaves the line; keep says whether the typed query stays applied.
func (f *filterLine) close(keep bool) {
	f.active = false
	f.input.Blur()
	if !keep {
		f.input.SetValue("")
		f.err = nil
		f.reparse()
		return
	}
	if f.err != nil { // an invalid query never stays on screen as if applied
		f.input.SetValue(f.lastGood)
		f.err = nil
	}
}

// set replaces the text (saved filters, initial query) and applies it.
func (f *filterLine) set(text string) {
	f.input.SetValue(text)
	f.reparse()
}

func (f filterLine) Update(msg tea.Msg) (filterLine, tea.Cmd) {
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if f.input.Value() != before {
		f.reparse()
	}
	return f, cmd
}

func (f *filterLine) reparse() {
	text := f.input.Value()
	q, err := query.Parse(text)
	if err != nil {
		f.err = err
		return
	}
	f.err = nil
	f.applied, f.changed, f.lastGood = q, true, text
}

func (f *filterLine) text() string { return f.lastGood }

// Render is the query line with the parse error in place.
func (f filterLine) Render(st *styles.Styles, width int) string {
	f.input.SetWidth(max(10, width/2))
	line := f.input.View()
	if f.err != nil {
		line += "  " + st.ErrText.Render("✖ "+format.Safe(f.err.Error()))
	}
	return format.FitLine(ansi.Truncate(line, width, format.Ellipsis), width)
}
