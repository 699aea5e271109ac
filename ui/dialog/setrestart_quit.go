package dialog

import (
	"fmt"
	"strings"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// QuitReport says what the set had done when the board ended while it ran:
// the allowed apps grouped by what the board last observed of each; a
// restart whose request had not answered yet is "outcome unknown", not
// "restarted". "" unless running.
func (d *SetRestart) QuitReport() string {
	if d.phase != SetRunning {
		return ""
	}
	groups := []struct {
		title string
		keys  []model.Key
	}{
		{title: "restarted"},
		{title: "still rolling (restart sent; rollout not followed to its end)"},
		{title: "restart request in flight (outcome unknown)"},
		{title: "failed"},
		{title: "never started"},
	}
	for _, k := range d.allowed {
		u, seen := d.status[k]
		i := 4
		switch {
		case !seen || u.Status == restart.Pending || u.Status == restart.NotStarted:
			i = 4
		case u.Status == restart.Done:
			i = 0
		case u.Status == restart.Failed:
			i = 3
		case u.Detail != "": // a progress note comes only after the patch was accepted
			i = 1
		default:
			i = 2
		}
		groups[i].keys = append(groups[i].keys, k)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "quit during a set restart of %s: nothing new was started.\n", restart.CountApps(len(d.allowed)))
	for _, g := range groups {
		if len(g.keys) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %s (%d):\n", g.title, len(g.keys))
		for _, k := range g.keys {
			fmt.Fprintf(&b, "    %s\n", format.Safe(k.String()))
		}
	}
	if len(d.refused) > 0 {
		fmt.Fprintf(&b, "  refused before confirming (%d): not sent\n", len(d.refused))
	}
	return b.String()
}
