package dialog

import (
	"fmt"
	"strings"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Render is the dialog box content: exactly the plan the use case made
// (every word from outside sanitised), then the question.
func (d *Promote) Render(st *styles.Styles, width int, spin string) string {
	k := &d.km
	back := k.Back.Help().Key
	inner := max(20, min(width-6, 90))
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	field := func(name, value string) {
		add(format.Wrap(st.Dim.Render(fmt.Sprintf("%-10s ", name))+format.Safe(value), inner)...)
	}
	add(st.DialogTitle.Render(d.title()), "")
	if d.phase == PromoteAsk || d.phase == PromoteSending || d.phase == PromoteFailed ||
		(d.phase == PromoteChoose && d.before == PromoteAsk) {
		if d.IsSet() {
			d.renderSet(st, inner, add, field)
		} else {
			d.renderPlan(st, inner, add, field)
		}
		add("")
	}
	switch d.phase {
	case PromotePlanning:
		add(spin + " reading the plan: the release, the declaring file, the GitHub account…")
	case PromoteRefused:
		add(format.Wrap(st.ErrText.Render("✖ refused: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render("nothing was written · " + k.PromoteTag.Help().Key + " another tag · " + back + " close"))
	case PromoteChoose:
		add(d.tag.View())
		if len(d.tags) > 0 {
			add(st.Dim.Render("releases the board read: " + format.Safe(strings.Join(d.tags, ", "))))
		}
		add(st.Dim.Render("↑/↓ pick · " + k.Accept.Help().Key + " plan it · " + back + " back"))
	case PromoteAsk:
		if d.mustType() {
			add(st.WarnText.Render(fmt.Sprintf("Production: type %s to open this pull request.", format.Safe(d.words()))))
			add(d.typed.View())
			if d.reason != "" {
				add(format.Wrap(st.ErrText.Render(format.Safe(d.reason)), inner)...)
			}
			add(st.Dim.Render(k.Accept.Help().Key + " confirm · " + back + " cancel"))
		} else {
			add(st.Bold.Render("Open this pull request?") + st.Dim.Render("  "+k.Yes.Help().Key+" yes · "+
				k.No.Help().Key+"/"+k.Accept.Help().Key+"/"+back+" no · "+k.PromoteTag.Help().Key+" another tag"))
		}
	case PromoteSending:
		add(spin + " opening the pull request…")
	case PromoteFailed:
		add(format.Wrap(st.ErrText.Render("✖ not opened: ")+format.Safe(d.reason), inner)...)
		add(st.Dim.Render(back + " close"))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}

func (d *Promote) title() string {
	if d.IsSet() {
		return fmt.Sprintf("Promote %d marked apps?", len(d.keys))
	}
	return "Promote " + format.Safe(d.keys[0].Namespace+"/"+d.keys[0].Name) + "?"
}

func (d *Promote) renderPlan(st *styles.Styles, inner int, add func(...string), field func(string, string)) {
	p := d.plan.PromotionPlan
	r := d.rows[0]
	field("App", fmt.Sprintf("%s/%s on %s (%s)", p.Key.Namespace, p.Key.Name, r.Cluster, p.Env))
	field("release", format.OrDash(p.From)+" → "+p.To)
	field("repository", p.Repo+" @ "+p.Base)
	field("file", p.Path)
	add(st.ErrText.Render(format.FitLine(fmt.Sprintf("  -%d: %s", p.Line, format.Safe(p.Before)), inner)))
	add(st.OkText.Render(format.FitLine(fmt.Sprintf("  +%d: %s", p.Line, format.Safe(p.After)), inner)))
	field("branch", p.Branch)
	field("PR title", p.Title)
	if p.NotesURL != "" {
		field("notes", p.NotesURL)
	}
	field("as", actsAs(p))
}

func (d *Promote) renderSet(st *styles.Styles, inner int, add func(...string), field func(string, string)) {
	s := d.set
	for _, p := range s.Plans {
		add(format.FitLine(format.Safe(fmt.Sprintf("  %s (%s): %s → %s  %s:%d", p.Key, p.Env, format.OrDash(p.From), p.To, p.Path, p.Line)), inner))
	}
	for _, r := range s.Refused {
		add(format.Wrap(st.WarnText.Render("  left out ")+format.Safe(r.Key.String()+": "+r.Reason), inner)...)
	}
	if len(s.Plans) == 0 {
		return
	}
	field("repository", s.Change.Repo.String()+" @ "+s.Change.Base)
	field("files", fmt.Sprintf("%d, one commit", len(s.Change.Files)))
	field("branch", s.Change.Branch)
	field("PR title", s.Change.Title)
	field("as", actsAs(s.Plans[0]))
}

func actsAs(p model.PromotionPlan) string {
	if p.Asker != "" {
		return "GitHub user " + p.Login + ", asked by " + p.Asker
	}
	return "GitHub user " + p.Login
}
