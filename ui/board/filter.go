package board

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Filter is the "/" query line: parsed on every keystroke; a valid query
// applies at once, an invalid one keeps the last good query and shows why.
type Filter struct {
	input  textinput.Model
	active bool
	err    error
	// applied reports the query the board should use after an update.
	applied  query.Query
	changed  bool
	lastGood string
}

// NewFilter is the query line, empty and closed.
func NewFilter(st *styles.Styles) Filter {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "iam sev:red,yellow env:main ns:tenant-* -flag:stale (enter keeps, esc clears)"
	in.SetStyles(st.Input)
	in.CharLimit = 256
	return Filter{input: in}
}

// SetStyles restyles the line (a new background or colour profile).
func (f *Filter) SetStyles(st *styles.Styles) { f.input.SetStyles(st.Input) }

// Active reports that the line has the keys; Err why the text typed is not
// a query.
func (f *Filter) Active() bool { return f.active }
func (f *Filter) Err() error   { return f.err }

// Applied is the query the board should show, and whether it changed
// since asked last.
func (f *Filter) Applied() (query.Query, bool) {
	changed := f.changed
	f.changed = false
	return f.applied, changed
}

// Open focuses the line, keeping the current text.
func (f *Filter) Open() tea.Cmd {
	f.active = true
	f.input.CursorEnd()
	return f.input.Focus()
}

// Close leaves the line; keep says whether the typed query stays applied.
func (f *Filter) Close(keep bool) {
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

// Set replaces the text (saved filters, initial query) and applies it.
func (f *Filter) Set(text string) {
	f.input.SetValue(text)
	f.reparse()
}

// Update edits the line and parses what changed.
func (f Filter) Update(msg tea.Msg) (Filter, tea.Cmd) {
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if f.input.Value() != before {
		f.reparse()
	}
	return f, cmd
}

func (f *Filter) reparse() {
	text := f.input.Value()
	q, err := query.Parse(text)
	if err != nil {
		f.err = err
		return
	}
	f.err = nil
	f.applied, f.changed, f.lastGood = q, true, text
}

// Typed is the text on the line, a query or not.
func (f *Filter) Typed() string { return f.input.Value() }

// Text is the query applied, as typed.
func (f *Filter) Text() string { return f.lastGood }

// Render is the query line with the parse error in place.
func (f Filter) Render(st *styles.Styles, width int) string {
	f.input.SetWidth(max(10, width/2))
	line := f.input.View()
	if f.err != nil {
		line += "  " + st.ErrText.Render("✖ "+format.Safe(f.err.Error()))
	}
	return format.FitLine(ansi.Truncate(line, width, format.Ellipsis), width)
}
