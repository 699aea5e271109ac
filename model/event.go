package model

import (
	"cmp"
	"errors"
	"slices"
	"time"
)

// ErrEventsForbidden is wrapped when this identity may not read Events:
// the detail says "cannot read (forbidden)", never "none".
var ErrEventsForbidden = errors.New("forbidden")

// Event is one Kubernetes Event about an App, its workload, its pod sets or
// its pods, as the detail and `driftboard get` show it.
type Event struct {
	Object  string    `json:"object"` // "Pod web-6d4f-x2x7k": the involvedObject
	Type    string    `json:"type"`   // Normal | Warning
	Reason  string    `json:"reason"`
	Message string    `json:"message"`
	Count   int32     `json:"count"`
	Last    time.Time `json:"last"` // when it was last seen
	// Reporter is who the Event says reported it (reportingController, else
	// source.component), as its writer set it: anyone who may create Events
	// in the namespace sets what they like.
	Reporter string `json:"reporter"`
	// Restart is set on an Event that reads as driftboard's restart record:
	// RestartOwn when it names the workload's last restart as the patch wrote
	// it (hanzo.ai/restartedAt on the pod template, the same workload UID),
	// else RestartUnmatched (another writer's look-alike, or an earlier
	// restart). Who restarted is the annotation's, never the Event's words.
	Restart string `json:"restart,omitempty"`
}

// Restart values of an Event.
const (
	RestartOwn       = "driftboard"
	RestartUnmatched = "unmatched"
)

// MaxEvents bounds the list the detail and `get` show.
const MaxEvents = 50

// MergeEvents folds Events that say the same thing about the same object
// into one (counts summed, the latest time kept), newest first, at most
// limit of them. Kubernetes already counts repeats of one Event object;
// this also folds the separate objects a recorder makes after a restart.
func MergeEvents(in []Event, limit int) []Event {
	type sameness struct{ object, typ, reason, message, reporter, restart string }
	at := map[sameness]int{}
	var out []Event
	for _, e := range in {
		e.Count = max(e.Count, 1)
		k := sameness{e.Object, e.Type, e.Reason, e.Message, e.Reporter, e.Restart}
		if i, ok := at[k]; ok {
			out[i].Count += e.Count
			if e.Last.After(out[i].Last) {
				out[i].Last = e.Last
			}
			continue
		}
		at[k] = len(out)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Event) int {
		if c := b.Last.Compare(a.Last); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Object, b.Object), cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Message, b.Message))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
