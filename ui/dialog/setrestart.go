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
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
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
	rows      []*model.AppView // marked rows as they were when opened
	user      string
	limit     int
	keys      keymap.Map
	phase     setPhase
	refused   map[model.Key]string
	allowed   []model.Key
	typed     textinput.Model
	reason    string // why the typed text did not confirm
	confirmed string // the typed text that confirmed
	cont      bool   // continue after a failure
	status    map[model.Key]restart.Update
	summary   *restart.Summary
	checks    map[model.Key]restart.Checked // every row's check, as it answered
	plan      restart.SetPlan               // the use case's sorting of the checks, once all answered
	checking  int                           // answers still awaited
}

// actRestartSet: the user confirmed the set the dialog shows.
type actRestartSet struct{ d *setRestartDialog }

func (actRestartSet) isAction() {}

func newSetRestart(rows []*model.AppView, user string, limit int, st *styles.Styles, keys keymap.Map) *setRestartDialog {
	d := &setRestartDialog{rows: rows, user: user, limit: max(limit, 1), keys: keys,
		refused: map[model.Key]string{}, status: map[model.Key]restart.Update{}, checks: map[model.Key]restart.Checked{}}
	d.typed = textinput.New()
	d.typed.CharLimit = 64
	d.typed.SetStyles(st.Input)
	return d
}

// answer is what must be typed to confirm the allowed rows.
func (d *setRestartDialog) answer() string { return d.plan.Answer }

func countApps(n int) string { return restart.CountApps(n) }

// refuse records a row the board refuses before asking the fleet.
func (d *setRestartDialog) refuse(r *model.AppView, why string) {
	d.checks[r.Key()] = restart.Checked{Key: r.Key(), Plan: model.PlanRestart(r), Decision: model.Decision{Reason: why}}
}

// checked records one row's check; the last one moves to asking, with the
// rows sorted by the use case as a typed confirmation sees them.
func (d *setRestartDialog) checked(c restart.Checked) tea.Cmd {
	if c.Key != (model.Key{}) {
		d.checks[c.Key] = c
	}
	if a := c.Decision.Actor; a != nil {
		d.user = a.Label()
	}
	d.checking--
	if d.checking > 0 {
		return nil
	}
	var all []restart.Checked
	for _, r := range d.rows {
		all = append(all, d.checks[r.Key()])
	}
	d.plan = restart.PlanSet(all, restart.Confirmation{})
	d.allowed, d.refused = d.plan.Allowed, d.plan.Refused
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
		case len(d.allowed) == 0 && key.Matches(msg, k.Login): // nothing to type; the refusals name L
			return actStartLogin{}, nil
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
			d.confirmed = d.typed.Value()
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
		parts = append(parts, format.Safe(n)+" "+strconv.Itoa(m[n]))
	}
	return strings.Join(parts, ", ")
}
