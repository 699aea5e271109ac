package ui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

type confirmPhase int

const (
	confirmChecking confirmPhase = iota // CheckRestart running
	confirmRefused                      // not allowed: says which and why
	confirmAsk                          // allowed: waiting for y / the typed name
	confirmSending                      // Restart running
	confirmFailed                       // Restart returned an error
)

// confirmResult is what the user decided in this update.
type confirmResult int

const (
	resultNone confirmResult = iota
	resultConfirm
	resultClose
)

// confirmDialog renders the model's RestartPlan and asks, default No.
// Production needs the app name typed; other envs take "y".
type confirmDialog struct {
	key    model.Key
	row    *model.AppView    // as it was when opened (immutable)
	plan   model.RestartPlan // what the restart does, decided by model
	user   string
	phase  confirmPhase
	reason string
	typed  textinput.Model
	result confirmResult
}

func newConfirm(row *model.AppView, user string, st *styles) *confirmDialog {
	d := &confirmDialog{key: row.Key(), row: row, plan: model.PlanRestart(row), user: user}
	d.typed = textinput.New()
	d.typed.Prompt = "type " + row.App + ": "
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.input)
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

func (d *confirmDialog) waiting() bool {
	return d.phase == confirmChecking || d.phase == confirmSending
}

// Update handles keys; the root reads d.result afterwards.
func (d confirmDialog) Update(msg tea.Msg) (confirmDialog, tea.Cmd) {
	d.result = resultNone
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	s := k.String()
	if s == "esc" {
		d.result = resultClose
		return d, nil
	}
	switch d.phase {
	case confirmAsk:
		if d.plan.MustType {
			if s == "enter" {
				if d.plan.Confirmed(d.typed.Value()) {
					d.result = resultConfirm
				} else {
					d.reason = "the typed name does not match " + d.row.App + "; not restarted"
				}
				return d, nil
			}
			var cmd tea.Cmd
			d.typed, cmd = d.typed.Update(msg)
			d.reason = ""
			return d, cmd
		}
		switch s {
		case "y", "Y":
			d.result = resultConfirm
		case "n", "N", "enter", "q":
			d.result = resultClose // default is No
		}
	case confirmRefused, confirmFailed:
		if s == "enter" || s == "q" || s == "n" {
			d.result = resultClose
		}
	}
	return d, nil
}

// Render is the dialog box content (the root frames and centres it).
func (d *confirmDialog) Render(st *styles, width int, spin string) string {
	p := d.plan
	user := d.user
	if user == "" {
		user = "(nobody)"
	}
	inner := max(20, min(width-6, 76))
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	add(st.dialogTitle.Render("Restart?"), "")
	add(wrapText(safe(p.Title()+" as "+user), inner)...)
	add(wrapText(safe(p.Effect()), inner)...)
	if len(p.Warnings) > 0 {
		add("")
		for _, w := range p.Warnings {
			add(wrapText(st.warnText.Render("▲ ")+safe(w), inner)...)
		}
	}
	add("")
	switch d.phase {
	case confirmChecking:
		add(spin + " checking permission…")
	case confirmRefused:
		add(wrapText(st.errText.Render("✖ not allowed: ")+safe(d.reason), inner)...)
		add(st.dim.Render("esc close"))
	case confirmAsk:
		if d.plan.MustType {
			add(wrapText(st.warnText.Render(safe(p.Prompt())), inner)...)
			add(d.typed.View())
			if d.reason != "" {
				add(st.errText.Render(safe(d.reason)))
			}
			add(st.dim.Render("enter confirm · esc cancel"))
		} else {
			add(st.bold.Render(p.Prompt()) + st.dim.Render("  y yes · n/enter/esc no"))
		}
	case confirmSending:
		add(spin + " sending restart…")
	case confirmFailed:
		add(wrapText(st.errText.Render("✖ restart failed: ")+safe(d.reason), inner)...)
		add(st.dim.Render("esc close"))
	}
	return st.dialog.Render(strings.Join(lines, "\n"))
}
