package dialog

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Render is the dialog box content: who acts, the counts, every refusal,
// and then the prompt, the progress per row, or the summary.
func (d *SetRestart) Render(st *styles.Styles, width int, spin string) string {
	back := d.keys.Back.Help().Key
	inner := max(20, min(width-6, 90))
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	add(st.DialogTitle.Render("Restart "+strings.Replace(restart.CountApps(len(d.rows)), " app", " marked app", 1)+"?"), "")
	if d.phase == SetChecking {
		add(spin+" checking permission for each app…", "", st.Dim.Render(back+" cancel"))
		return st.Dialog.Render(strings.Join(lines, "\n"))
	}
	who := " as " + format.Safe(d.user) + ","
	if d.user == "" {
		who = ", not logged in,"
	}
	add(format.Wrap(fmt.Sprintf("Rolling restart of %s%s at most %d at once.", restart.CountApps(len(d.allowed)), who, d.limit), inner)...)
	add("  clusters: "+d.counts(func(r *model.AppView) string { return r.Cluster }),
		"  envs:     "+d.counts(func(r *model.AppView) string { return string(r.Env) }),
		"  kinds:    "+d.counts(func(r *model.AppView) string { return string(r.Workload.Kind) }))
	if d.phase == SetAsk {
		add(d.names(inner)...)
		if names := d.legacy(); names != "" {
			add(format.Wrap(st.WarnText.Render("▲ ")+"Legacy workloads the Hanzo operator does not own (no controller reference to their App): "+
				names+". The restart touches only their workloads; their Apps are not changed.", inner)...)
		}
	}
	if len(d.refused) > 0 {
		add("", st.ErrText.Render(fmt.Sprintf("✖ %d refused (not sent):", len(d.refused))))
		for _, r := range d.rows {
			if why, ok := d.refused[r.Key()]; ok {
				add(format.Wrap("  "+format.Safe(r.Namespace+"/"+r.App+" ("+r.Cluster+")")+": "+format.OneLine(why), inner)...)
			}
		}
	}
	add("")
	switch d.phase {
	case SetAsk:
		if len(d.allowed) == 0 {
			add(st.Dim.Render("nothing to restart · enter/" + back + " close"))
			break
		}
		add(d.typed.View())
		if d.reason != "" {
			add(st.ErrText.Render(format.Safe(d.reason)))
		}
		onFail := "the first failure stops new starts"
		if d.cont {
			onFail = "continue after failures"
		}
		add(st.Dim.Render("enter confirm · tab: " + onFail + " · " + back + " cancel"))
	case SetRunning, SetDone:
		for _, k := range d.allowed {
			u, ok := d.status[k]
			word := "waiting"
			if ok {
				word = string(u.Status)
				if u.Status == restart.Running {
					word = spin + " restarting"
				}
				if u.Detail != "" {
					word += ": " + format.OneLine(u.Detail)
				}
			}
			add(format.Wrap("  "+format.Safe(k.Namespace+"/"+k.Name)+" "+word, inner)...)
		}
		if d.phase == SetDone {
			add("", st.Bold.Render(d.summaryText()), st.Dim.Render("enter/"+back+" close"))
		} else {
			add("", st.Dim.Render(d.keys.Quit.Help().Key+" quit: nothing new starts; what was done is printed"))
		}
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}

// legacy names the rows to restart whose workload the App does not own
// (three, then how many more); "" when none.
func (d *SetRestart) legacy() string {
	var names []string
	for _, r := range d.rows {
		if _, no := d.refused[r.Key()]; !no && r.HasProblem(model.ProblemLegacyWorkload) {
			names = append(names, format.Safe(r.Namespace+"/"+r.App))
		}
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("+%d more", len(names)-3))
	}
	return strings.Join(names, ", ")
}

// setNameLines caps the list of apps the set restarts; the marks on the
// board show the rest.
const setNameLines = 4

// names lists the apps the set will restart (with their cluster when the
// set spans several), so the typed count confirms a set the person has read, not only counted.
// The last line keeps room to say how many more there are.
func (d *SetRestart) names(width int) []string {
	const label = "  apps:     "
	pad := strings.Repeat(" ", len(label))
	var rows []*model.AppView
	clusters := map[string]bool{}
	for _, r := range d.rows {
		if _, no := d.refused[r.Key()]; !no {
			rows = append(rows, r)
			clusters[r.Cluster] = true
		}
	}
	// An item never runs past the box, with room left for the count of the rest.
	most := max(1, width-len(label)-len(fmt.Sprintf(", +%d more", len(rows))))
	var items []string
	for _, r := range rows {
		it := r.Namespace + "/" + r.App
		if len(clusters) > 1 { // else the clusters line above names the one
			it += " (" + r.Cluster + ")"
		}
		items = append(items, ansi.Truncate(format.Safe(it), most, format.Ellipsis))
	}
	if len(items) == 0 {
		return nil
	}
	lines := []string{label}
	for i, it := range items {
		last := len(lines) == setNameLines
		more := ""
		if last && i < len(items)-1 {
			more = fmt.Sprintf(", +%d more", len(items)-i-1)
		}
		cur := &lines[len(lines)-1]
		sep := ""
		if *cur != label {
			sep = ", "
		}
		switch { // +1: the comma a wrapped line ends with
		case format.TextWidth(*cur+sep+it+more)+1 <= width || *cur == label:
			*cur += sep + it
		case last:
			*cur += fmt.Sprintf(", +%d more", len(items)-i)
			return lines
		default:
			*cur += ","
			lines = append(lines, pad+it)
		}
	}
	return lines
}
