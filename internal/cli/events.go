package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// rowWithEvents is the JSON (and YAML) form of `get`: the row's fields and
// its recent Events; events is null and eventsNote says why when they could
// not be read (unread is not none).
type rowWithEvents struct {
	*model.AppView
	Events     []model.Event `json:"events"`
	EventsNote string        `json:"eventsNote,omitempty"`
}

// MarshalJSON writes the row's JSON (its verdict first) and the Events
// after it: the embedded row's own MarshalJSON would drop them.
func (r rowWithEvents) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		model.RowJSON
		Events     []model.Event `json:"events"`
		EventsNote string        `json:"eventsNote,omitempty"`
	}{r.AppView.JSON(), r.Events, r.EventsNote})
}

// readEvents is one read of the row's Events for `get`; a failure is a note.
func readEvents(ctx context.Context, fl *kube.Fleet, r *model.AppView) rowWithEvents {
	evs, err := fl.RecentEvents(ctx, r.Key())
	switch {
	case errors.Is(err, model.ErrEventsForbidden):
		return rowWithEvents{AppView: r, EventsNote: "cannot read (forbidden)"}
	case err != nil:
		return rowWithEvents{AppView: r, EventsNote: "could not read: " + err.Error()}
	case evs == nil:
		evs = []model.Event{}
	}
	return rowWithEvents{AppView: r, Events: evs}
}

// writeEvents prints the Events section of `get`, newest first.
func writeEvents(w io.Writer, r rowWithEvents, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	switch {
	case r.EventsNote != "":
		fmt.Fprintf(tw, "Events:\t%s\n", termtext.Sanitize(r.EventsNote))
	case len(r.Events) == 0:
		fmt.Fprintln(tw, "Events:\tnone recorded (Kubernetes keeps Events about an hour)")
	default:
		fmt.Fprintln(tw, "Events:")
		fmt.Fprintln(tw, "  AGE\tTYPE\tREASON\tCOUNT\tOBJECT\tREPORTER\tMESSAGE")
		for _, e := range r.Events {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\t%s%s\n", termtext.Sanitize(eventAge(now.Sub(e.Last))), termtext.Sanitize(e.Type),
				termtext.Sanitize(e.Reason), e.Count, termtext.Sanitize(e.Object), termtext.Sanitize(dash(e.Reporter)),
				termtext.Sanitize(e.Message), restartNote(e))
		}
	}
	return tw.Flush()
}

func eventAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// restartNote says whether an Event that reads as driftboard's restart is
// the workload's last restart as the patch wrote it.
func restartNote(e model.Event) string {
	switch e.Restart {
	case model.RestartOwn:
		return " [driftboard's restart: matches the workload's hanzo.ai/restartedAt]"
	case model.RestartUnmatched:
		return " [NOT driftboard's last restart: no match with the workload's hanzo.ai/restartedAt; another writer's Event or an earlier restart]"
	}
	return ""
}
