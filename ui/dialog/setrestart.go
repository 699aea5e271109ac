package dialog

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

// SetPhase is where a set restart stands.
type SetPhase int

const (
	SetChecking SetPhase = iota // the use case's Check for every marked row
	SetAsk                      // the counts and refusals shown; waiting for the typed confirmation
	SetRunning                  // restarts under way
	SetDone                     // the summary, until closed
)

// SetRestart restarts the marked rows as one set: every row is
// checked first, the refusals are listed before asking, the typed count
// (or "restart N apps" when any row is production) confirms, and the
// restarts run at most limit at once with progress per row.
type SetRestart struct {
	rows      []*model.AppView // marked rows as they were when opened
	user      string
	limit     int
	keys      keymap.Map
	phase     SetPhase
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

// NewSetRestart asks about restarting rows (as they are now) as user, at
// most limit at once; each row is refused (Refuse) or checked (CheckRows)
// before it asks.
func NewSetRestart(rows []*model.AppView, user string, limit int, st *styles.Styles, keys keymap.Map) *SetRestart {
	d := &SetRestart{rows: rows, user: user, limit: max(limit, 1), keys: keys,
		refused: map[model.Key]string{}, status: map[model.Key]restart.Update{}, checks: map[model.Key]restart.Checked{}}
	d.typed = textinput.New()
	d.typed.CharLimit = 64
	d.typed.SetStyles(st.Input)
	return d
}

// answer is what must be typed to confirm the allowed rows.
func (d *SetRestart) answer() string { return d.plan.Answer }

// Phase is where the set stands.
func (d *SetRestart) Phase() SetPhase { return d.phase }

// Allowed are the rows the set restarts, once checked.
func (d *SetRestart) Allowed() []model.Key { return d.allowed }

// Refuse records a row the board refuses before asking the fleet.
func (d *SetRestart) Refuse(r *model.AppView, why string) {
	d.checks[r.Key()] = restart.Checked{Key: r.Key(), Plan: model.PlanRestart(r), Decision: model.Decision{Reason: why}}
}

// checked records one row's check while checking; the last one moves to
// asking.
func (d *SetRestart) checked(c restart.Checked) tea.Cmd {
	if d.phase != SetChecking {
		return nil
	}
	if c.Key != (model.Key{}) { // a check that failed outright answers with none
		d.checks[c.Key] = c
	}
	if a := c.Decision.Actor; a != nil {
		d.user = a.Label()
	}
	d.checking--
	if d.checking > 0 {
		return nil
	}
	return d.ask()
}

// ask sorts the rows by the use case, as a typed confirmation sees them,
// and asks.
func (d *SetRestart) ask() tea.Cmd {
	var all []restart.Checked
	for _, r := range d.rows {
		all = append(all, d.checks[r.Key()])
	}
	d.plan = restart.PlanSet(all, restart.Confirmation{})
	d.allowed, d.refused = d.plan.Allowed, d.plan.Refused
	d.phase = SetAsk
	d.typed.Prompt = "type " + d.answer() + ": "
	return d.typed.Focus()
}

// input is the use case's input for the confirmed set: its plan, the typed
// confirmation, the limit and whether a failure stops new starts; report
// receives each row's progress.
func (d *SetRestart) input(report func(restart.Update)) restart.SetInput {
	return restart.SetInput{Plan: d.plan, Confirm: restart.Confirmation{Answer: d.confirmed}, MaxParallel: d.limit,
		ContinueOnError: d.cont, Follow: true, Report: report}
}

// Busy: checks or restarts are under way.
func (d *SetRestart) Busy() bool { return d.phase == SetChecking || d.phase == SetRunning }

// Update: the typed confirmation while asking, quit while running, close
// once done.
func (d *SetRestart) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &d.keys
	switch d.phase {
	case SetAsk:
		switch {
		case key.Matches(msg, k.Back):
			return Close{Status: "set restart cancelled; nothing was sent"}, nil
		case len(d.allowed) == 0 && key.Matches(msg, k.Login): // nothing to type; the refusals name L
			return StartLogin{}, nil
		case msg.String() == "tab":
			d.cont = !d.cont
			return None{}, nil
		case key.Matches(msg, k.Accept):
			if len(d.allowed) == 0 {
				return Close{Status: "every marked app is refused; nothing was sent"}, nil
			}
			if strings.TrimSpace(d.typed.Value()) != d.answer() {
				d.reason = "type exactly " + strconv.Quote(d.answer()) + " to confirm; nothing was sent"
				return None{}, nil
			}
			d.confirmed = d.typed.Value()
			d.phase = SetRunning
			return RestartSet{d}, nil
		}
		var cmd tea.Cmd
		d.typed, cmd = d.typed.Update(msg)
		d.reason = ""
		return None{}, cmd
	case SetDone:
		if key.Matches(msg, k.Back, k.Accept, k.Quit) {
			return Close{Status: d.summaryText()}, nil
		}
	case SetRunning:
		if key.Matches(msg, k.Quit) {
			return Quit{}, nil
		}
	case SetChecking:
		if key.Matches(msg, k.Back) {
			return Close{Status: "set restart cancelled; nothing was sent"}, nil
		}
	}
	return None{}, nil
}

func (d *SetRestart) summaryText() string {
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
func (d *SetRestart) counts(what func(*model.AppView) string) string {
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
