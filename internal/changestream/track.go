package changestream

import (
	"slices"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// Tracker remembers the last verdicts it reported and turns each new
// snapshot into the events that tell the difference. It reports only what
// two snapshots show: a row whose verdict is unchanged after a resync or a
// reconnect yields nothing, and rows of a cluster that has never been live
// are held back until it is, then reported as current, not added.
type Tracker struct {
	query       query.Query
	changesOnly bool
	started     bool
	known       map[string]bool // clusters seen live at least once
	rows        map[model.Key]Verdict
	matched     map[model.Key]bool // whether the last verdict's row matched the query
	clusters    map[string]ClusterView
	promotions  *Promotions // nil: not read, the verdicts leave them out
}

// SetPromotions is what the next Observe reports of the rows' promotions.
func (t *Tracker) SetPromotions(p Promotions) { t.promotions = &p }

// NewTracker reports rows matching q; with changesOnly the first snapshot
// yields only a summary.
func NewTracker(q query.Query, changesOnly bool) *Tracker {
	return &Tracker{query: q, changesOnly: changesOnly, known: map[string]bool{},
		rows: map[model.Key]Verdict{}, matched: map[model.Key]bool{}, clusters: map[string]ClusterView{}}
}

// Observe returns the events between the last snapshot and snap, observed at now.
func (t *Tracker) Observe(snap *store.Snapshot, now time.Time) []Event {
	var events []Event
	first := !t.started
	t.started = true
	newlyKnown := map[string]bool{}
	for _, c := range snap.Clusters {
		view := ClusterView{State: string(c.Phase), Reason: c.Reason}
		if prev, seen := t.clusters[c.Name]; seen && !first && prev.State != view.State {
			events = append(events, Event{Time: now, Event: KindCluster, Cluster: c.Name, Before: &prev, After: &view})
		}
		t.clusters[c.Name] = view
		if c.Phase == model.ConnLive && !t.known[c.Name] {
			t.known[c.Name] = true
			newlyKnown[c.Name] = true
		}
	}

	seen := make(map[model.Key]bool, snap.Len())
	var shown []*model.AppView // matching rows of the first snapshot, for its summary
	for row := range snap.All() {
		if !t.known[row.Cluster] {
			continue // its cluster has not synced: nothing is observed yet
		}
		k := row.Key()
		seen[k] = true
		v := VerdictOf(row)
		v.Promotion = t.promotions.viewOf(k)
		match := t.query.Match(row)
		prev, had := t.rows[k]
		prevMatch := t.matched[k]
		t.rows[k], t.matched[k] = v, match
		switch {
		case first || !had && newlyKnown[row.Cluster]:
			if match {
				shown = append(shown, row)
				if !t.changesOnly || !first {
					events = append(events, rowEvent(now, KindCurrent, k, nil, &v, nil))
				}
			}
		case !had:
			if match {
				events = append(events, rowEvent(now, KindAdded, k, nil, &v, nil))
			}
		default:
			if changed := prev.Changes(v); changed != nil && (match || prevMatch) {
				events = append(events, rowEvent(now, KindChanged, k, &prev, &v, changed))
			}
		}
	}
	var gone []model.Key
	for k := range t.rows {
		if !seen[k] {
			gone = append(gone, k)
		}
	}
	slices.SortFunc(gone, func(a, b model.Key) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range gone {
		prev := t.rows[k]
		if t.matched[k] {
			events = append(events, rowEvent(now, KindDeleted, k, &prev, nil, nil))
		}
		delete(t.rows, k)
		delete(t.matched, k)
	}
	if first {
		sum := store.Summarize(shown)
		events = append(events, Event{Time: now, Event: KindSummary, Summary: &sum, Clusters: t.clusterList(snap)})
	}
	return events
}

func (t *Tracker) clusterList(snap *store.Snapshot) []ClusterSummary {
	out := make([]ClusterSummary, 0, len(snap.Clusters))
	for _, c := range snap.Clusters {
		out = append(out, ClusterSummary{Name: c.Name, ClusterView: t.clusters[c.Name]})
	}
	return out
}

func rowEvent(now time.Time, kind Kind, k model.Key, before, after *Verdict, changed []string) Event {
	ev := Event{Time: now, Event: kind, Cluster: k.Cluster, Namespace: k.Namespace, App: k.Name, Changed: changed}
	if before != nil {
		ev.Before = before
	}
	if after != nil {
		ev.After = after
	}
	return ev
}
