package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// EventWatcher follows an app's Kubernetes Events while its detail is open. The list arrives merged,
// newest first; the channel closes when ctx ends or the watch cannot go on.
// kube.Fleet implements it with a LIST and a WATCH of the namespace's Events.
type EventWatcher interface {
	WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error)
}

// eventsWatch is the open detail's Events: started when it opens, stopped
// (its context cancelled) when it closes. Nothing is kept for other rows.
type eventsWatch struct {
	seq     uint64
	cancel  context.CancelFunc
	loading bool
	done    bool // a list arrived
	stopped bool // the watch ended while the detail was open
	list    []model.Event
	err     error
}

// eventsStartedMsg is the watch's first answer: a channel, or why not.
type eventsStartedMsg struct {
	key model.Key
	seq uint64
	ch  <-chan []model.Event
	err error
}

// eventsMsg is one list from the watch; closed when the channel closed.
type eventsMsg struct {
	key    model.Key
	seq    uint64
	ch     <-chan []model.Event
	list   []model.Event
	closed bool
}

// watchEvents starts following the open detail's Events. seq carries on from an earlier opening, so its lists are stale.
func (m *Model) watchEvents() tea.Cmd {
	m.stopEvents()
	e, w := &m.detail.events, m.fleet
	e.seq++
	e.loading = true
	ctx, cancel := context.WithCancel(m.ctx)
	e.cancel = cancel
	k, seq := m.detail.key, e.seq
	return func() tea.Msg {
		ch, err := w.WatchEvents(ctx, k)
		return eventsStartedMsg{key: k, seq: seq, ch: ch, err: err}
	}
}

// stopEvents ends the watch of the detail being closed (or replaced).
func (m *Model) stopEvents() {
	if e := &m.detail.events; e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
}

func nextEvents(k model.Key, seq uint64, ch <-chan []model.Event) tea.Cmd {
	return func() tea.Msg {
		list, ok := <-ch
		return eventsMsg{key: k, seq: seq, ch: ch, list: list, closed: !ok}
	}
}

func (m *Model) current(k model.Key, seq uint64) bool {
	// The YAML opened over the detail leaves it open underneath.
	open := m.screen == screenDetail || m.screen == screenYAML && m.yamlFrom == screenDetail ||
		m.screen == screenLogs && m.logsFrom == screenDetail
	return open && k == m.detail.key && seq == m.detail.events.seq
}

// onEvents keeps lists of the watch still open and asks for the next one.
func (m *Model) onEvents(msg tea.Msg) tea.Cmd {
	e := &m.detail.events
	switch msg := msg.(type) {
	case eventsStartedMsg:
		if !m.current(msg.key, msg.seq) {
			return nil
		}
		if msg.err != nil {
			e.loading, e.err = false, msg.err
			return nil
		}
		return nextEvents(msg.key, msg.seq, msg.ch)
	case eventsMsg:
		if !m.current(msg.key, msg.seq) {
			return nil
		}
		if msg.closed {
			e.loading, e.stopped = false, true
			return nil
		}
		e.loading, e.done, e.list = false, true, msg.list
		return nextEvents(msg.key, msg.seq, msg.ch)
	}
	return nil
}

// eventLines are the detail's Events section: age, type, reason, count,
// object and message, newest first; cluster text through safe.
func (m *Model) eventLines(width int) []string {
	st := &m.st
	e := m.detail.events
	var out []string
	switch {
	case errors.Is(e.err, model.ErrEventsForbidden):
		out = append(out, st.ErrText.Render("events: cannot read (forbidden)"))
	case model.IsNotAvailable(e.err):
		out = append(out, wrapText(st.Dim.Render(format.Safe(e.err.Error())), width)...)
	case e.err != nil:
		out = append(out, wrapText(st.ErrText.Render("events: could not read: ")+format.Safe(e.err.Error()), width)...)
	case e.loading && !e.done:
		out = append(out, st.Dim.Render("reading events…"))
	case !e.done:
		out = append(out, st.Dim.Render("not read"))
	case len(e.list) == 0:
		out = append(out, st.Dim.Render("none recorded (Kubernetes keeps Events about an hour)"))
	}
	now := m.now()
	for _, ev := range e.list {
		typ := format.Safe(ev.Type)
		if ev.Type == "Warning" {
			typ = st.WarnText.Render(typ)
		}
		count := ""
		if ev.Count > 1 {
			count = fmt.Sprintf(" ×%d", ev.Count)
		}
		head := st.Dim.Render(fmt.Sprintf("%-5s", format.ShortDuration(now.Sub(ev.Last)))) + " " + typ + " " +
			st.Bold.Render(format.Safe(ev.Reason)) + count + st.Dim.Render(" "+format.Safe(ev.Object)) + "  " + format.Safe(ev.Message) +
			st.Dim.Render(" — from "+format.Safe(format.OrDash(ev.Reporter)))
		switch ev.Restart {
		case model.RestartOwn:
			head += st.Dim.Render(" (driftboard's restart: matches the workload's annotation)")
		case model.RestartUnmatched:
			head += " " + st.WarnText.Render("▲ not driftboard's last restart (no match with the workload's hanzo.ai/restartedAt)")
		}
		out = append(out, wrapText(head, width)...)
	}
	if e.stopped {
		out = append(out, st.WarnText.Render("▲ live updates stopped (the watch ended)"))
	}
	return out
}
