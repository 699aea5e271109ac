package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

type setPhase int

const (
	setChecking setPhase = iota // CheckRestart for every marked row
	setAsk                      // the counts and refusals shown; waiting for the typed confirmation
	setRunning                  // restarts under way
	setDone                     // the summary, until closed
)

// setRestartDialog restarts the marked rows as one set: every row is
// checked first, the refusals are listed before asking, the typed count
// (or "restart N apps" when any row is production) confirms, and the
// restarts run at most limit at once with progress per row.
type setRestartDialog struct {
	rows     []*model.AppView // marked rows as they were when opened
	user     string
	limit    int
	keys     keyMap
	phase    setPhase
	refused  map[model.Key]string
	allowed  []model.Key
	typed    textinput.Model
	reason   string // why the typed text did not confirm
	cont     bool   // continue after a failure
	status   map[model.Key]restart.Update
	summary  *restart.Summary
	anyProd  bool
	checking int // answers still awaited
}

// actRestartSet: the user confirmed the set the dialog shows.
type actRestartSet struct{ d *setRestartDialog }

func (actRestartSet) isAction() {}

func newSetRestart(rows []*model.AppView, user string, limit int, st *styles, keys keyMap) *setRestartDialog {
	d := &setRestartDialog{rows: rows, user: user, limit: max(limit, 1), keys: keys,
		refused: map[model.Key]string{}, status: map[model.Key]restart.Update{}}
	for _, r := range rows {
		if r.Env.IsProduction() {
			d.anyProd = true
		}
	}
	d.typed = textinput.New()
	d.typed.CharLimit = 64
	d.typed.SetStyles(st.input)
	return d
}

// answer is what must be typed to confirm the allowed rows.
func (d *setRestartDialog) answer() string {
	if d.anyProd {
		return "restart " + countApps(len(d.allowed))
	}
	return strconv.Itoa(len(d.allowed))
}

// countApps is "1 app", "2 apps".
func countApps(n int) string {
	if n == 1 {
		return "1 app"
	}
	return strconv.Itoa(n) + " apps"
}

// checked records one row's decision; the last one moves to asking.
func (d *setRestartDialog) checked(k model.Key, dec model.Decision) tea.Cmd {
	if !dec.Allowed {
		d.refused[k] = cmpOr(dec.Reason, "refused (no reason given)")
	}
	if dec.Actor != nil {
		d.user = dec.Actor.Label()
	}
	d.checking--
	if d.checking > 0 {
		return nil
	}
	for _, r := range d.rows {
		if _, no := d.refused[r.Key()]; !no {
			d.allowed = append(d.allowed, r.Key())
		}
	}
	d.phase = setAsk
	d.typed.Prompt = "type " + d.answer() + ": "
	return d.typed.Focus()
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (d *setRestartDialog) busy() bool { return d.phase == setChecking || d.phase == setRunning }

func (d *setRestartDialog) Update(msg tea.KeyPressMsg) (action, tea.Cmd) {
	k := &d.keys
	switch d.phase {
	case setAsk:
		switch {
		case key.Matches(msg, k.Back):
			return actClose{status: "set restart cancelled; nothing was sent"}, nil
		case msg.String() == "tab":
			d.cont = !d.cont
			return actNone{}, nil
		case key.Matches(msg, k.Accept):
			if len(d.allowed) == 0 {
				return actClose{status: "every marked app is refused; nothing was sent"}, nil
			}
			if strings.TrimSpace(d.typed.Value()) != d.answer() {
				d.reason = "type exactly " + strconv.Quote(d.answer()) + " to confirm; nothing was sent"
				return actNone{}, nil
			}
			d.phase = setRunning
			return actRestartSet{d}, nil
		}
		var cmd tea.Cmd
		d.typed, cmd = d.typed.Update(msg)
		d.reason = ""
		return actNone{}, cmd
	case setDone:
		if key.Matches(msg, k.Back, k.Accept, k.Quit) {
			return actClose{status: d.summaryText()}, nil
		}
	case setRunning:
		if key.Matches(msg, k.Quit) {
			return actQuit{}, nil
		}
	case setChecking:
		if key.Matches(msg, k.Back) {
			return actClose{status: "set restart cancelled; nothing was sent"}, nil
		}
	}
	return actNone{}, nil
}

func (d *setRestartDialog) summaryText() string {
	if d.summary == nil {
		return ""
	}
	s := d.summary
	text := fmt.Sprintf("set restart: %d restarted, %d failed, %d not started, %d refused", s.Done, s.Failed, s.NotStarted, len(d.refused))
	if s.Stopped != "" {
		text += " (stopped: " + s.Stopped + ")"
	}
	return text
}

// counts says how many allowed rows fall in each value of what.
func (d *setRestartDialog) counts(what func(*model.AppView) string) string {
	m := map[string]int{}
	for _, r := range d.rows {
		if _, no := d.refused[r.Key()]; !no {
			m[what(r)]++
		}
	}
	var names []string
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, safe(n)+" "+strconv.Itoa(m[n]))
	}
	return strings.Join(parts, ", ")
}
