package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/drift"
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

// confirmDialog names exactly what a restart will do and asks, default No.
// Production (env main) needs the app name typed; other envs take "y".
type confirmDialog struct {
	key      model.Key
	row      *model.AppView // as it was when opened (immutable)
	user     string
	phase    confirmPhase
	reason   string
	typed    textinput.Model
	mustType bool
	result   confirmResult
}

func newConfirm(row *model.AppView, user string, st *styles) *confirmDialog {
	d := &confirmDialog{key: row.Key(), row: row, user: user, mustType: row.Env.IsProduction()}
	d.typed = textinput.New()
	d.typed.Prompt = "type " + row.App + ": "
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.input)
	return d
}

func (d *confirmDialog) refuse(reason string) { d.phase, d.reason = confirmRefused, reason }

func (d *confirmDialog) ask() tea.Cmd {
	d.phase = confirmAsk
	if d.mustType {
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
		if d.mustType {
			if s == "enter" {
				if d.typed.Value() == d.row.App {
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

// warnings are the things a restart will not fix or should not be done over.
func restartWarnings(r *model.AppView) []string {
	var out []string
	if r.Workload.Rollout == model.RolloutProgressing {
		out = append(out, "a rollout is already in progress ("+rolloutCell(r, nil)+"); a restart starts it over")
	}
	if r.Stale {
		out = append(out, "this cluster's data is stale (reconnecting): the row may be out of date")
	}
	needsGit := false
	for _, f := range r.Drift.Flags {
		switch f.Kind {
		case drift.DriftStale, drift.DriftFloatingDeclared, drift.DriftUnrolled:
			needsGit = true
		case drift.DriftFloatingRunning:
			needsGit = true
			out = append(out, "floating tag "+orDash(r.RunningTag)+": a restart may pull a different image under the same name")
		}
	}
	if needsGit {
		out = append(out, fmt.Sprintf("drift a restart will not fix (%s): tags are declared in git —"+
			" commit to infra/k8s/operator/crs/%s.yaml", flagWords(r.Drift.Flags), r.App))
	}
	return out
}

// repullTag is what new pods will run: the workload template's tag.
func repullTag(r *model.AppView) string {
	if r.Workload.SpecTag != "" {
		return r.Workload.SpecTag
	}
	return r.RunningTag
}

func flagWords(fs []drift.DriftFlag) string {
	ws := make([]string, 0, len(fs))
	for _, f := range fs {
		ws = append(ws, string(f.Kind))
	}
	return strings.Join(ws, ", ")
}

// Render is the dialog box content (the root frames and centres it).
func (d *confirmDialog) Render(st *styles, width int, spin string) string {
	r := d.row
	kind := string(r.Workload.Kind)
	if kind == "" {
		kind = "workload"
	}
	user := d.user
	if user == "" {
		user = "(nobody)"
	}
	inner := max(20, min(width-6, 76))
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	add(st.dialogTitle.Render("Restart?"), "")
	add(wrapText(fmt.Sprintf("Rolling restart of %s %s/%s in cluster %s (env %s) as %s",
		kind, r.Namespace, orDash(r.Workload.Name), orDash(r.Cluster), orDash(r.Env), user), inner)...)
	add(wrapText("Re-pulls "+orDash(repullTag(r))+" (declared "+orDash(r.DeclaredTag)+"); the image is not changed.", inner)...)
	if ws := restartWarnings(r); len(ws) > 0 {
		add("")
		for _, w := range ws {
			add(wrapText(st.warnText.Render("▲ ")+w, inner)...)
		}
	}
	add("")
	switch d.phase {
	case confirmChecking:
		add(spin + " checking permission…")
	case confirmRefused:
		add(wrapText(st.errText.Render("✖ not allowed: ")+d.reason, inner)...)
		add(st.dim.Render("esc close"))
	case confirmAsk:
		if d.mustType {
			add(st.warnText.Render("Production (env main): type the app name to confirm."))
			add(d.typed.View())
			if d.reason != "" {
				add(st.errText.Render(d.reason))
			}
			add(st.dim.Render("enter confirm · esc cancel"))
		} else {
			add(st.bold.Render("Restart? [y/N]") + st.dim.Render("  y yes · n/enter/esc no"))
		}
	case confirmSending:
		add(spin + " sending restart…")
	case confirmFailed:
		add(wrapText(st.errText.Render("✖ restart failed: ")+d.reason, inner)...)
		add(st.dim.Render("esc close"))
	}
	return st.dialog.Render(strings.Join(lines, "\n"))
}
