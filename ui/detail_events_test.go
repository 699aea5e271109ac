package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/detail"
)

// eventRestarter is a Restarter that also follows Events, as kube.Fleet
// does; the test feeds the channel.
type eventRestarter struct {
	*fakeRestarter
	mu   sync.Mutex
	ctxs []context.Context
	ch   chan []model.Event
	err  error
}

func (e *eventRestarter) WatchEvents(ctx context.Context, _ model.Key) (<-chan []model.Event, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ctxs = append(e.ctxs, ctx)
	return e.ch, e.err
}

// msgsOf runs cmd (batches included) and returns its messages of type T;
// commands that block longer than a moment are dropped.
func msgsOf[T any](cmd tea.Cmd) []T { return msgsWithin[T](cmd, 100*time.Millisecond) }

// msgsWithin runs cmd (batches included) and returns its messages of type T
// from the commands that answer within wait each (a timer that fires
// later, such as the clock's tick, is dropped).
func msgsWithin[T any](cmd tea.Cmd, wait time.Duration) []T {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var out []T
	select {
	case msg := <-ch:
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				out = append(out, msgsWithin[T](c, wait)...)
			}
		} else if m, ok := msg.(T); ok {
			out = append(out, m)
		}
	case <-time.After(wait):
	}
	return out
}

func openEvents(t *testing.T, er *eventRestarter) (*Model, tea.Cmd) {
	t.Helper()
	m, src := newTestModel(t, er, orgAdmin(), Options{}, 120, 80)
	src.upsert(floatingApp("", 2))
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "web")
	_, cmd := m.Update(keyMsg("enter"))
	started := msgsOf[detail.EventsStartedMsg](cmd)
	if len(started) != 1 {
		t.Fatalf("opening the detail started %d event watches", len(started))
	}
	_, next := m.Update(started[0])
	return m, next
}

func TestDetailEventsLive(t *testing.T) {
	er := &eventRestarter{fakeRestarter: &fakeRestarter{}, ch: make(chan []model.Event, 1)}
	m, next := openEvents(t, er)
	if v := plainView(m); !strings.Contains(v, "reading events…") {
		t.Errorf("before the first list:\n%s", v)
	}
	first := []model.Event{
		{Object: "ReplicaSet web-7d9f", Type: "Warning", Reason: "FailedCreate", Count: 7, Last: t0.Add(-2 * time.Minute),
			Message: "exceeded quota: pods\x1b[2J\x1b]0;pwned\x07"},
		{Object: "Deployment web", Type: "Normal", Reason: "ScalingReplicaSet", Count: 1, Last: t0.Add(-5 * time.Minute),
			Message: "Scaled up replica set web-7d9f from 0 to 1"},
	}
	er.ch <- first
	evs := msgsOf[detail.EventsMsg](next)
	if len(evs) != 1 {
		t.Fatal("no list from the watch")
	}
	_, next = m.Update(evs[0])
	v := plainView(m)
	for _, want := range []string{"Events", "2m    Warning FailedCreate ×7 ReplicaSet web-7d9f  exceeded quota: pods",
		"5m    Normal ScalingReplicaSet Deployment web  Scaled up replica set web-7d9f from 0 to 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	if raw := m.View().Content; strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "pwned\x07") ||
		!strings.Contains(v, `pods\x1b[2J\x1b]0;pwned\x07`) {
		t.Error("an Event message's escapes were not shown as text")
	}
	var laid strings.Builder // the detail's lines before the frame's guard
	m.detail.Render(&laid, 120, 80)
	if strings.Contains(laid.String(), "\x1b[2J") {
		t.Error("the Events lines carry a raw escape (the frame sanitiser is a second line, not the first)")
	}
	if strings.Index(v, "FailedCreate") > strings.Index(v, "ScalingReplicaSet") {
		t.Error("not newest first")
	}

	// A new Event while open: shown at once.
	er.ch <- append([]model.Event{{Object: "Pod web-7d9f-x", Type: "Warning", Reason: "BackOff", Count: 3, Last: t0,
		Message: "Back-off restarting failed container"}}, first...)
	evs = msgsOf[detail.EventsMsg](next)
	if len(evs) != 1 {
		t.Fatal("no second list from the watch")
	}
	m.Update(evs[0])
	if v := plainView(m); !strings.Contains(v, "0s    Warning BackOff ×3 Pod web-7d9f-x") {
		t.Errorf("the new Event is not shown:\n%s", v)
	}

	// Closing the detail stops the watch; a late list is ignored.
	press(m, "q")
	if er.ctxs[0].Err() == nil {
		t.Error("the watch's context is still live after the detail closed")
	}
	m.Update(detail.EventsMsg{Key: m.detail.Key(), Seq: evs[0].Seq, Ch: er.ch, Closed: true})
	if m.detail.EventsStopped() {
		t.Error("a message after close changed the closed detail")
	}

	// Reopened: a new watch; a channel that closes says so.
	_, cmd := m.Update(keyMsg("enter"))
	started := msgsOf[detail.EventsStartedMsg](cmd)
	if len(er.ctxs) != 2 || len(started) != 1 || er.ctxs[1].Err() != nil {
		t.Fatalf("reopening: %d watches, %d started", len(er.ctxs), len(started))
	}
	m.Update(started[0])
	m.Update(detail.EventsMsg{Key: started[0].Key, Seq: started[0].Seq, Closed: true})
	if v := plainView(m); !strings.Contains(v, "live updates stopped") {
		t.Errorf("a closed watch is not reported:\n%s", v)
	}
}

func TestDetailEventsForbidden(t *testing.T) {
	er := &eventRestarter{fakeRestarter: &fakeRestarter{},
		err: fmt.Errorf("list events: Kubernetes refused: %w", model.ErrEventsForbidden)}
	m, _ := openEvents(t, er)
	v := plainView(m)
	if !strings.Contains(v, "events: cannot read (forbidden)") || strings.Contains(v, "none recorded (") {
		t.Errorf("forbidden Events:\n%s", v)
	}
}
