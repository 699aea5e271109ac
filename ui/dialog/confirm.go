package dialog

import (
	"cmp"
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

// ConfirmPhase is where a restart confirmation stands.
type ConfirmPhase int

const (
	ConfirmChecking ConfirmPhase = iota // the use case's Check running
	ConfirmRefused                      // not allowed: says which and why
	ConfirmAsk                          // allowed: waiting for y / the typed name
	ConfirmSending                      // Restart running
	ConfirmFailed                       // Restart returned an error
)

// Confirm renders the model's RestartPlan and asks, default No.
// Production needs the app name typed; other envs take "y"; whether an
// answer confirms is the use case's call (restart.ConfirmOne).
type Confirm struct {
	key    model.Key
	row    *model.AppView    // as it was when opened (immutable)
	plan   model.RestartPlan // what the restart does, decided by model
	chk    restart.Checked   // the allowed check shown: the confirm is bound to it
	answer string            // what confirmed it (y, the typed name)
	user   string
	phase  ConfirmPhase
	reason string
	typed  textinput.Model
	keys   keymap.Map
}

// NewConfirm is the confirmation of row's restart as user, refused (Refuse)
// or checking (Check) before it asks.
func NewConfirm(row *model.AppView, user string, st *styles.Styles, keys keymap.Map) *Confirm {
	d := &Confirm{key: row.Key(), row: row, plan: model.PlanRestart(row), user: user, keys: keys}
	d.typed = textinput.New()
	d.typed.Prompt = "type " + row.App + ": "
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.Input)
	return d
}

// Key is the App the dialog restarts.
func (d *Confirm) Key() model.Key { return d.key }

// Row is the row as it was when the dialog opened.
func (d *Confirm) Row() *model.AppView { return d.row }

// Phase is where the dialog stands; Reason why it refused or failed.
func (d *Confirm) Phase() ConfirmPhase { return d.phase }
func (d *Confirm) Reason() string      { return d.reason }

// Refuse shows why the restart is not allowed.
func (d *Confirm) Refuse(reason string) { d.phase, d.reason = ConfirmRefused, reason }

// Check shows the use case's check under way.
func (d *Confirm) Check() { d.phase = ConfirmChecking }

// Checked takes the check's answer while checking: a refusal, or the
// question, bound to what was checked and naming who the API server
// authenticated (not who the token claims).
func (d *Confirm) Checked(chk restart.Checked) tea.Cmd {
	if d.phase != ConfirmChecking {
		return nil
	}
	if !chk.Decision.Allowed {
		d.Refuse(cmp.Or(chk.Decision.Reason, "refused (no reason given)"))
		return nil
	}
	d.chk = chk
	if a := chk.Decision.Actor; a != nil {
		d.user = a.Label()
	}
	return d.ask()
}

// Send shows the restart being sent and is the use case's input: the check
// the person confirmed and their answer.
func (d *Confirm) Send() restart.Input {
	d.phase = ConfirmSending
	return restart.Input{Checked: d.chk, Confirm: restart.Confirmation{Answer: d.answer}}
}

// Failed shows why the restart was not done.
func (d *Confirm) Failed(reason string) { d.phase, d.reason = ConfirmFailed, reason }

func (d *Confirm) ask() tea.Cmd {
	d.phase = ConfirmAsk
	if d.plan.MustType {
		return d.typed.Focus()
	}
	return nil
}

// declined closes a dialog that asked (or was about to ask), saying so: a
// restart that did not happen is news too.
func (d *Confirm) declined() Action {
	return Close{Status: "restart of " + d.key.Namespace + "/" + d.key.Name + " declined"}
}

// Busy: the check or the restart is under way.
func (d *Confirm) Busy() bool {
	return d.phase == ConfirmChecking || d.phase == ConfirmSending
}

// Update answers a key with an action: confirm, close, or nothing yet.
func (d *Confirm) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &d.keys
	if key.Matches(msg, k.Back) {
		if d.phase == ConfirmAsk || d.phase == ConfirmChecking {
			return d.declined(), nil
		}
		return Close{}, nil
	}
	switch d.phase {
	case ConfirmAsk:
		if d.plan.MustType {
			if key.Matches(msg, k.Accept) {
				if err := restart.ConfirmOne(d.plan, restart.Confirmation{Answer: d.typed.Value()}); err != nil {
					d.reason = err.Error()
					return None{}, nil
				}
				d.answer = d.typed.Value()
				return Restart{d}, nil
			}
			var cmd tea.Cmd
			d.typed, cmd = d.typed.Update(msg)
			d.reason = ""
			return None{}, cmd
		}
		switch {
		case key.Matches(msg, k.Yes):
			d.answer = "y"
			return Restart{d}, nil
		case key.Matches(msg, k.No, k.Accept, k.Quit):
			return d.declined(), nil // default is No
		}
	case ConfirmRefused, ConfirmFailed:
		switch {
		case key.Matches(msg, k.Accept, k.Quit, k.No):
			return Close{}, nil
		case key.Matches(msg, k.Login): // the refusal names it ("press L to log in")
			return StartLogin{}, nil
		}
	}
	return None{}, nil
}

// Render is the dialog box content (the root frames and centres it).
func (d *Confirm) Render(st *styles.Styles, width int, spin string) string {
	p, k := d.plan, &d.keys
	back := k.Back.Help().Key
	who := " as " + d.user
	if d.user == "" { // the refusal below says what to do about it
		who = ", not logged in"
	}
	inner := max(20, min(width-6, 76))
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	add(st.DialogTitle.Render("Restart?"), "")
	add(format.Wrap(format.Safe(p.Title()+who), inner)...)
	add(format.Wrap(format.Safe(p.Effect()), inner)...)
	if srv := d.chk.Decision.Bound.Server; srv != "" {
		add(format.Wrap(st.Dim.Render("API server "+format.Safe(srv)), inner)...)
	}
	if len(p.Warnings) > 0 {
		add("")
		for _, w := range p.Warnings {
			add(format.Wrap(st.WarnText.Render("▲ ")+format.Safe(w), inner)...)
		}
	}
	add("")
	switch d.phase {
	case ConfirmChecking:
		add(spin + " checking permission…")
	case ConfirmRefused:
		add(format.Wrap(st.ErrText.Render("✖ not allowed: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render(back + " close"))
	case ConfirmAsk:
		if d.plan.MustType {
			add(format.Wrap(st.WarnText.Render(format.Safe(p.Prompt())), inner)...)
			add(d.typed.View())
			if d.reason != "" {
				add(st.ErrText.Render(format.Safe(d.reason)))
			}
			add(st.Dim.Render(k.Accept.Help().Key + " confirm · " + back + " cancel"))
		} else {
			add(st.Bold.Render(p.Prompt()) + st.Dim.Render("  "+k.Yes.Help().Key+" yes · "+k.No.Help().Key+"/"+k.Accept.Help().Key+"/"+back+" no"))
		}
	case ConfirmSending:
		add(spin + " sending restart…")
	case ConfirmFailed:
		add(format.Wrap(st.ErrText.Render("✖ restart failed: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render(back + " close"))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
