package ui

import (
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

type confirmPhase int

const (
	confirmChecking confirmPhase = iota // CheckRestart running
	confirmRefused                      // not allowed: says which and why
	confirmAsk                          // allowed: waiting for y / the typed name
	confirmSending                      // Restart running
	confirmFailed                       // Restart returned an error
)

// confirmDialog renders the model's RestartPlan and asks, default No.
// Production needs the app name typed; other envs take "y".
type confirmDialog struct {
	key    model.Key
	row    *model.AppView    // as it was when opened (immutable)
	plan   model.RestartPlan // what the restart does, decided by model
	chk    restart.Checked   // the allowed check shown: the confirm is bound to it
	answer string            // what confirmed it (y, the typed name)
	user   string
	phase  confirmPhase
	reason string
	typed  textinput.Model
	keys   keymap.Map
}

func newConfirm(row *model.AppView, user string, st *styles.Styles, keys keymap.Map) *confirmDialog {
	d := &confirmDialog{key: row.Key(), row: row, plan: model.PlanRestart(row), user: user, keys: keys}
	d.typed = textinput.New()
	d.typed.Prompt = "type " + row.App + ": "
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.Input)
	return d
}

func (d *confirmDialog) refuse(reason string) { d.phase, d.reason = confirmRefused, reason }

func (d *confirmDialog) ask() tea.Cmd {
	d.phase = confirmAsk
	if d.plan.MustType {
		return d.typed.Focus()
	}
	return nil
}

// declined closes a dialog that asked (or was about to ask), saying so: a
// restart that did not happen is news too.
func (d *confirmDialog) declined() action {
	return actClose{status: "restart of " + d.key.Namespace + "/" + d.key.Name + " declined"}
}

func (d *confirmDialog) busy() bool {
	return d.phase == confirmChecking || d.phase == confirmSending
}

// Update answers a key with an action: confirm, close, or nothing yet.
func (d *confirmDialog) Update(msg tea.KeyPressMsg) (action, tea.Cmd) {
	k := &d.keys
	if key.Matches(msg, k.Back) {
		if d.phase == confirmAsk || d.phase == confirmChecking {
			return d.declined(), nil
		}
		return actClose{}, nil
	}
	switch d.phase {
	case confirmAsk:
		if d.plan.MustType {
			if key.Matches(msg, k.Accept) {
				if err := restart.ConfirmOne(d.plan, restart.Confirmation{Answer: d.typed.Value()}); err != nil {
					d.reason = err.Error()
					return actNone{}, nil
				}
				d.answer = d.typed.Value()
				return actRestart{d}, nil
			}
			var cmd tea.Cmd
			d.typed, cmd = d.typed.Update(msg)
			d.reason = ""
			return actNone{}, cmd
		}
		switch {
		case key.Matches(msg, k.Yes):
			d.answer = "y"
			return actRestart{d}, nil
		case key.Matches(msg, k.No, k.Accept, k.Quit):
			return d.declined(), nil // default is No
		}
	case confirmRefused, confirmFailed:
		switch {
		case key.Matches(msg, k.Accept, k.Quit, k.No):
			return actClose{}, nil
		case key.Matches(msg, k.Login): // the refusal names it ("press L to log in")
			return actStartLogin{}, nil
		}
	}
	return actNone{}, nil
}

// Render is the dialog box content (the root frames and centres it).
func (d *confirmDialog) Render(st *styles.Styles, width int, spin string) string {
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
	add(wrapText(format.Safe(p.Title()+who), inner)...)
	add(wrapText(format.Safe(p.Effect()), inner)...)
	if srv := d.chk.Decision.Bound.Server; srv != "" {
		add(wrapText(st.Dim.Render("API server "+format.Safe(srv)), inner)...)
	}
	if len(p.Warnings) > 0 {
		add("")
		for _, w := range p.Warnings {
			add(wrapText(st.WarnText.Render("▲ ")+format.Safe(w), inner)...)
		}
	}
	add("")
	switch d.phase {
	case confirmChecking:
		add(spin + " checking permission…")
	case confirmRefused:
		add(wrapText(st.ErrText.Render("✖ not allowed: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render(back + " close"))
	case confirmAsk:
		if d.plan.MustType {
			add(wrapText(st.WarnText.Render(format.Safe(p.Prompt())), inner)...)
			add(d.typed.View())
			if d.reason != "" {
				add(st.ErrText.Render(format.Safe(d.reason)))
			}
			add(st.Dim.Render(k.Accept.Help().Key + " confirm · " + back + " cancel"))
		} else {
			add(st.Bold.Render(p.Prompt()) + st.Dim.Render("  "+k.Yes.Help().Key+" yes · "+k.No.Help().Key+"/"+k.Accept.Help().Key+"/"+back+" no"))
		}
	case confirmSending:
		add(spin + " sending restart…")
	case confirmFailed:
		add(wrapText(st.ErrText.Render("✖ restart failed: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render(back + " close"))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
