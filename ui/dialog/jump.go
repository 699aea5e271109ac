package dialog

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// jumpTerms maps the prompt's first word (k9s habit: ":ctx prod") to the
// query term it becomes; the board filters through the query language.
var jumpTerms = map[string]string{
	"ctx": "cluster", "context": "cluster", "cluster": "cluster",
	"env": "env", "ns": "namespace", "namespace": "namespace",
}

// quitWords quit from the prompt, as k9s' ":q" does (a saved filter of the
// same name wins).
var quitWords = map[string]bool{"q": true, "q!": true, "quit": true}

// Jump is the ":" prompt: "ctx NAME", "env NAME", "ns NAME" or a saved
// filter's name, applied as the board's filter. tab completes known names.
type Jump struct {
	input  textinput.Model
	known  map[string][]string       // query term → names seen on the board, sorted
	counts map[string]map[string]int // query term → name → rows
	phase  map[string]model.ConnPhase
	saved  map[string]string
	// current is the filter applied when the prompt opened: a picker starts on it
	current string
	keys    keymap.Map
	note    string // why enter did nothing, or the candidates tab found
	failed  bool
}

// NewJump opens the prompt over the board showing snap (nil: none yet),
// offering the saved filters; current is the filter applied (or the e key's
// env as "env:NAME"), where a picker starts. The Cmd focuses the input.
func NewJump(snap *store.Snapshot, saved map[string]string, current string, st *styles.Styles, keys keymap.Map) (*Jump, tea.Cmd) {
	d := &Jump{known: map[string][]string{}, counts: map[string]map[string]int{}, saved: saved,
		keys: keys, current: current}
	if snap != nil {
		d.count(snap)
	}
	d.input = textinput.New()
	d.input.Prompt = ":"
	d.input.Placeholder = "ctx|env|ns [NAME] · saved filter"
	d.input.SetWidth(40) // without a width textinput shows the placeholder's first letter only
	d.input.SetStyles(st.Input)
	d.input.CharLimit = 128
	return d, d.input.Focus()
}

// Busy: the prompt waits on nothing.
func (d *Jump) Busy() bool { return false }

// Update edits the prompt; accept applies it, tab completes.
func (d *Jump) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Back):
		return Close{}, nil
	case key.Matches(msg, d.keys.Accept):
		if v := strings.TrimSpace(d.input.Value()); quitWords[v] && d.saved[v] == "" {
			return Quit{}, nil
		}
		if p, why := d.pick(d.input.Value()); p != nil || why != "" {
			if p == nil {
				d.note, d.failed = why, true
				return None{}, nil
			}
			return Pick{P: p}, nil
		}
		act, why := d.resolve(d.input.Value())
		if why != "" {
			d.note, d.failed = why, true
			return None{}, nil
		}
		return act, nil
	case msg.String() == "tab":
		d.complete()
		return None{}, nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	d.note, d.failed = "", false
	return None{}, cmd
}

// jumpTo is the action of a jump to term:value, q its query: the board shows
// what it names whatever the e key's env was (':ns hanzo-devnet' under
// env=main showed none of the rows its picker counted), and a known env is
// the e key's own.
func jumpTo(term, q, value string) ApplyFilter {
	if e, ok := model.ParseEnv(value); ok && term == "env" {
		return ApplyFilter{Jump: true, Env: e}
	}
	return ApplyFilter{Query: q, Jump: true}
}

// resolve turns the prompt into the filter to apply, or says why it cannot.
func (d *Jump) resolve(s string) (act ApplyFilter, why string) {
	s = strings.TrimSpace(s)
	if q, ok := d.saved[s]; ok && s != "" {
		return ApplyFilter{Query: q}, ""
	}
	f := strings.Fields(s)
	switch {
	case len(f) == 0:
		return act, "type ctx, env or ns (alone to pick one, or with a NAME) or a saved filter's name"
	case len(f) == 2 && jumpTerms[f[0]] != "":
		q := jumpTerms[f[0]] + ":" + f[1]
		if _, err := query.Parse(q); err != nil {
			return act, err.Error()
		}
		return jumpTo(jumpTerms[f[0]], q, f[1]), ""
	case jumpTerms[f[0]] != "":
		return act, f[0] + " takes one name"
	}
	return act, "no saved filter " + s + " (and not ctx/env/ns NAME)"
}

// complete extends the prompt to the one known name it starts, else lists
// the candidates.
func (d *Jump) complete() {
	v := d.input.Value()
	var prefix string
	var names []string
	if i := strings.IndexByte(v, ' '); i > 0 && jumpTerms[v[:i]] != "" {
		prefix, v = v[:i+1], strings.TrimLeft(v[i+1:], " ")
		names = d.known[jumpTerms[prefix[:len(prefix)-1]]]
	} else {
		names = []string{"ctx ", "env ", "ns "}
		for n := range d.saved {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	var hits []string
	for _, n := range names {
		if strings.HasPrefix(n, v) {
			hits = append(hits, n)
		}
	}
	switch len(hits) {
	case 0:
		d.note = "no known name starts " + v
	case 1:
		d.input.SetValue(prefix + hits[0])
		d.input.CursorEnd()
		d.note = ""
	default:
		d.note = strings.Join(hits, " · ")
	}
	d.failed = false
}

// Render is the prompt box.
func (d *Jump) Render(st *styles.Styles, width int, _ string) string {
	lines := []string{st.DialogTitle.Render("Jump"), "", d.input.View()}
	switch {
	case d.failed:
		lines = append(lines, st.ErrText.Render(format.Safe(d.note)))
	case d.note != "":
		lines = append(lines, st.Dim.Render(format.Safe(d.note)))
	}
	lines = append(lines, "", st.Dim.Render("tab complete · "+d.keys.Accept.Help().Key+" apply as filter · "+d.keys.Back.Help().Key+" close"))
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
