package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

var t0 = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

// Each Event says who reported it; one that reads as driftboard's restart
// says whether it is the workload's last restart as the patch wrote it.
func TestEventsShowReporterAndRestartSource(t *testing.T) {
	d := View{events: eventsWatch{done: true, list: []model.Event{
		{Object: "Deployment web", Type: "Normal", Reason: "Restarted", Count: 1, Last: t0, Reporter: "hanzo.ai/driftboard",
			Message: "Rolling restart requested by bob via driftboard", Restart: model.RestartUnmatched},
		{Object: "Deployment web", Type: "Normal", Reason: "Restarted", Count: 1, Last: t0, Reporter: "hanzo.ai/driftboard",
			Message: "Rolling restart requested by admin (alice) via driftboard", Restart: model.RestartOwn},
		{Object: "Pod web-1", Type: "Normal", Reason: "Pulled", Count: 1, Last: t0, Message: "pulled"},
	}}}
	st := styles.New(true, true)
	lines := ansi.Strip(strings.Join(d.eventLines(&st, t0, 300), "\n"))
	for _, want := range []string{
		"requested by bob via driftboard — from hanzo.ai/driftboard ▲ not driftboard's last restart",
		"requested by admin (alice) via driftboard — from hanzo.ai/driftboard (driftboard's restart: matches",
		"pulled — from -",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("lacks %q:\n%s", want, lines)
		}
	}
}
