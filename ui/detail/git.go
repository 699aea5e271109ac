package detail

import (
	"fmt"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// gitLines is the detail's CD section: the Application that syncs the row
// from git, its revision and last sync, and the honest next step for a
// stale or un-rolled row. Only what an Application reported is said.
func gitLines(st *styles.Styles, r *model.AppView, width int) []string {
	g := r.Git
	if g.State == "" { // the row was never looked up (no CD facts at all)
		return nil
	}
	out := []string{"", st.Bold.Render("Git (CD)")}
	kv := func(k, v string) {
		out = append(out, format.Wrap(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...)
	}
	kv("git", model.GitWords(g))
	if ch := r.Chart; ch != nil { // a chart-plane row: no App CR, facts from the Application
		kv("chart", format.OrDash(ch.Chart)+" from "+format.OrDash(ch.RepoURL)+" (no App CR)")
		kv("tag from", format.OrDash(ch.TagFrom))
		if ch.Digest != "" {
			kv("helm digest", ch.Digest)
		}
	}
	if g.Application != "" {
		kv("application", g.Application)
		kv("revision", format.OrDash(g.Revision))
		if g.Path != "" {
			kv("source path", g.Path)
		}
		if last := model.LastSyncWords(g.LastSync); last != "" {
			kv("last sync", last)
		} else {
			kv("last sync", "none reported")
		}
		if g.Health != "" {
			kv("CD health", g.Health)
		}
	}
	if next := model.GitNextStep(r); next != "" {
		kv("next step", next)
	}
	return out
}
