package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// StepKind is the step of a kept promotion a PromoteStep asks for.
type StepKind int

const (
	StepMerge StepKind = iota // merge its pull request
	StepSync                  // ask CD to sync the merged revision
)

// PromoteStep asks before merging a promotion's pull request or asking CD
// to sync its merge commit: default No, production the App's name typed,
// as the promote dialog asks. Whether the answer confirms, and whether the
// step may run at all, is internal/promote's call; GitHub's or CD's refusal
// is shown as it was said.
type PromoteStep struct {
	Kind     StepKind
	prom     model.Promotion
	mustType bool
	sending  bool
	reason   string // the last refusal or failure, shown as is
	failed   bool
	confirm  promote.Confirmation
	typed    textinput.Model
	km       keymap.Map
}

// NewPromoteStep asks for kind on prom; production rows need the name typed.
func NewPromoteStep(kind StepKind, prom model.Promotion, production bool, st *styles.Styles, km keymap.Map) (*PromoteStep, tea.Cmd) {
	d := &PromoteStep{Kind: kind, prom: prom, mustType: production, km: km}
	d.typed = textinput.New()
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.Input)
	if production {
		d.typed.Prompt = "type " + prom.Key.Name + ": "
		return d, d.typed.Focus()
	}
	return d, nil
}

// Promotion is the promotion asked about; Confirmation the answer.
func (d *PromoteStep) Promotion() model.Promotion         { return d.prom }
func (d *PromoteStep) Confirmation() promote.Confirmation { return d.confirm }

// Send shows the step under way.
func (d *PromoteStep) Send() { d.sending, d.failed, d.reason = true, false, "" }

// Failed shows why the step did not run; a mistyped name asks again.
func (d *PromoteStep) Failed(err error) {
	d.sending, d.reason = false, refusal(err)
	d.failed = !d.mustType
	if d.mustType {
		d.typed.Reset()
	}
}

func (d *PromoteStep) Busy() bool { return d.sending }

func (d *PromoteStep) verb() string {
	if d.Kind == StepSync {
		return "sync"
	}
	return "merge"
}

func (d *PromoteStep) action() Action {
	if d.Kind == StepSync {
		return SyncPromotion{d}
	}
	return MergePromotion{d}
}

// Update answers a key: confirm, close, or nothing yet.
func (d *PromoteStep) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &d.km
	if d.sending {
		return None{}, nil
	}
	declined := Close{Status: d.verb() + " of " + d.prom.Key.Namespace + "/" + d.prom.Key.Name + " declined: nothing done"}
	switch {
	case key.Matches(msg, k.Back):
		return declined, nil
	case d.failed:
		if key.Matches(msg, k.Accept, k.Quit, k.No) {
			return Close{}, nil
		}
	case d.mustType:
		if key.Matches(msg, k.Accept) {
			d.confirm = promote.Confirmation{Typed: d.typed.Value()}
			return d.action(), nil
		}
		var cmd tea.Cmd
		d.typed, cmd = d.typed.Update(msg)
		d.reason = ""
		return None{}, cmd
	case key.Matches(msg, k.Yes):
		d.confirm = promote.Confirmation{Yes: true}
		return d.action(), nil
	case key.Matches(msg, k.No, k.Accept, k.Quit):
		return declined, nil // default is No
	}
	return None{}, nil
}

// Render says what the step does to which pull request, then asks.
func (d *PromoteStep) Render(st *styles.Styles, width int, spin string) string {
	k := &d.km
	back := k.Back.Help().Key
	inner := max(20, min(width-6, 90))
	p := d.prom
	what := fmt.Sprintf("Merge pull request #%d", p.PR)
	if d.Kind == StepSync {
		what = "Ask CD to sync " + format.Safe(shortSHA(p.MergeSHA))
	}
	lines := []string{st.DialogTitle.Render(fmt.Sprintf("%s — %s/%s → %s", d.verb(), format.Safe(p.Key.Namespace),
		format.Safe(p.Key.Name), format.Safe(p.To))), ""}
	lines = append(lines, format.Wrap(st.Dim.Render("pull request ")+format.Safe(p.URL), inner)...)
	lines = append(lines, st.Dim.Render("checks       ")+format.Safe(p.Checks), "")
	switch {
	case d.sending:
		lines = append(lines, spin+" asking "+map[StepKind]string{StepMerge: "GitHub to merge", StepSync: "CD to sync"}[d.Kind]+"…")
	case d.failed:
		lines = append(lines, format.Wrap(st.ErrText.Render("✖ not done: ")+format.Safe(d.reason), inner)...)
		lines = append(lines, st.Dim.Render(back+" close"))
	case d.mustType:
		lines = append(lines, st.WarnText.Render(fmt.Sprintf("Production: type %s to %s.", format.Safe(p.Key.Name), d.verb())), d.typed.View())
		if d.reason != "" {
			lines = append(lines, format.Wrap(st.ErrText.Render(format.Safe(d.reason)), inner)...)
		}
		lines = append(lines, st.Dim.Render(k.Accept.Help().Key+" confirm · "+back+" cancel"))
	default:
		lines = append(lines, st.Bold.Render(what+"?")+st.Dim.Render("  "+k.Yes.Help().Key+" yes · "+
			k.No.Help().Key+"/"+k.Accept.Help().Key+"/"+back+" no"))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
