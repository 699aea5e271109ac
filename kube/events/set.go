package events

import (
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/model"
)

// maxKeptEvents bounds the Events of one app kept while its detail is open
// (the oldest go first): a tenant's flood of Events costs the viewer a
// match each, never an unbounded list.
const maxKeptEvents = 4 * model.MaxEvents

// seenEvent is one Event about the app, trimmed to what the detail shows
// and what ties it to a restart.
type seenEvent struct {
	stream     int
	ev         model.Event
	claims     bool   // reads as driftboard's restart record
	uid        string // its involvedObject.uid
	restarted  string // its hanzo.ai/restartedAt annotation
	objectKind string
}

// eventSet is the app's Events from every selection, matched on arrival.
type eventSet struct {
	src     *Source
	mu      sync.Mutex
	byUID   map[types.UID]seenEvent
	changed chan struct{} // room for one signal: bursts coalesce
}

func newEventSet(src *Source) *eventSet {
	return &eventSet{src: src, byUID: map[types.UID]seenEvent{}, changed: make(chan struct{}, 1)}
}

func (set *eventSet) signal() {
	select {
	case set.changed <- struct{}{}:
	default:
	}
}

// add keeps e when it is about the app, dropping the oldest beyond the bound.
func (set *eventSet) add(stream int, e *corev1.Event) {
	if !set.about(e.InvolvedObject.Kind, e.InvolvedObject.Name) {
		return
	}
	se := trimEvent(e)
	se.stream = stream
	set.mu.Lock()
	set.byUID[e.UID] = se
	if len(set.byUID) > maxKeptEvents {
		var oldest types.UID
		for uid, x := range set.byUID {
			if oldest == "" || x.ev.Last.Before(set.byUID[oldest].ev.Last) {
				oldest = uid
			}
		}
		delete(set.byUID, oldest)
	}
	set.mu.Unlock()
	set.signal()
}

func (set *eventSet) remove(uid types.UID) {
	set.mu.Lock()
	_, ok := set.byUID[uid]
	delete(set.byUID, uid)
	set.mu.Unlock()
	if ok {
		set.signal()
	}
}

// forget drops one selection's Events before it is read again.
func (set *eventSet) forget(stream int) {
	set.mu.Lock()
	for uid, x := range set.byUID {
		if x.stream == stream {
			delete(set.byUID, uid)
		}
	}
	set.mu.Unlock()
}

// about reports whether an Event's object is the App, its workload, one of
// the workload's ReplicaSets (from the cache, old and new during a rollout)
// or one of their pods.
func (set *eventSet) about(kind, name string) bool {
	key := set.src.Key
	switch kind {
	case set.src.AppKind, "Deployment", "StatefulSet":
		if name != key.Name {
			return false
		}
		if kind == set.src.AppKind {
			return true
		}
		w := set.src.Workload()
		return w != nil && string(w.Kind) == kind
	case "ReplicaSet", "Pod":
		if !strings.HasPrefix(name, key.Name+"-") {
			return false
		}
		for _, p := range set.podSets() {
			if kind == "ReplicaSet" && name == p {
				return true
			}
			if rest, ok := strings.CutPrefix(name, p+"-"); kind == "Pod" && ok && rest != "" && !strings.Contains(rest, "-") {
				return true
			}
		}
	}
	return false
}

// podSets are the names whose pods are the workload's: its ReplicaSets, or
// the StatefulSet itself.
func (set *eventSet) podSets() []string {
	w := set.src.Workload()
	if w == nil {
		return nil
	}
	if w.Kind == model.KindStatefulSet {
		return []string{set.src.Key.Name}
	}
	return set.src.ReplicaSets()
}

// merged is the kept Events, newest first, each restart look-alike checked
// against the workload's last restart as the cache has it now.
func (set *eventSet) merged() []model.Event {
	var uid, last string
	if w := set.src.Workload(); w != nil {
		uid, last = w.UID, w.RestartedAt
	}
	set.mu.Lock()
	in := make([]model.Event, 0, len(set.byUID))
	for _, x := range set.byUID {
		ev := x.ev
		if x.claims {
			ev.Restart = model.RestartUnmatched
			if last != "" && x.restarted == last && x.uid == uid && x.objectKind != set.src.AppKind {
				ev.Restart = model.RestartOwn
			}
		}
		in = append(in, ev)
	}
	set.mu.Unlock()
	return model.MergeEvents(in, model.MaxEvents)
}

// trimEvent keeps what the detail shows. Events recorded through
// events.k8s.io carry their count and last time in series.
func trimEvent(e *corev1.Event) seenEvent {
	count, last := e.Count, e.LastTimestamp.Time
	if sr := e.Series; sr != nil {
		count = max(count, sr.Count)
		if sr.LastObservedTime.After(last) {
			last = sr.LastObservedTime.Time
		}
	}
	for _, t := range []time.Time{e.EventTime.Time, e.FirstTimestamp.Time, e.CreationTimestamp.Time} {
		if last.IsZero() {
			last = t
		}
	}
	ref := e.InvolvedObject
	reporter := e.ReportingController
	if reporter == "" {
		reporter = e.Source.Component
	}
	return seenEvent{objectKind: ref.Kind, uid: string(ref.UID), restarted: e.Annotations[model.RestartedAtAnnotation],
		claims: e.Reason == RestartReason && (reporter == RestartController || reporter == RestartInstance ||
			strings.Contains(e.Message, "via driftboard")),
		ev: model.Event{Object: ref.Kind + " " + ref.Name, Type: e.Type, Reason: e.Reason, Message: e.Message,
			Count: count, Last: last, Reporter: reporter}}
}
