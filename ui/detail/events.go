package detail

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

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

// EventsStartedMsg is the watch's first answer: a channel, or why not.
type EventsStartedMsg struct {
	Key model.Key
	Seq uint64
	Ch  <-chan []model.Event
	Err error
}

// EventsMsg is one list from the watch; Closed when the channel closed.
type EventsMsg struct {
	Key    model.Key
	Seq    uint64
	Ch     <-chan []model.Event
	List   []model.Event
	Closed bool
}

// watchEvents starts following the Events of the app shown. seq carries
// on from an earlier opening, so its lists are stale.
func (d *View) watchEvents() tea.Cmd {
	d.Close()
	e, w := &d.events, d.rd
	e.seq++
	e.loading = true
	ctx, cancel := context.WithCancel(d.ctx)
	e.cancel = cancel
	k, seq := d.key, e.seq
	return func() tea.Msg {
		ch, err := w.WatchEvents(ctx, k)
		return EventsStartedMsg{Key: k, Seq: seq, Ch: ch, Err: err}
	}
}

// Close ends the watch of the detail being closed (or replaced).
func (d *View) Close() {
	if e := &d.events; e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
}

func nextEvents(k model.Key, seq uint64, ch <-chan []model.Event) tea.Cmd {
	return func() tea.Msg {
		list, ok := <-ch
		return EventsMsg{Key: k, Seq: seq, Ch: ch, List: list, Closed: !ok}
	}
}

// onEvents keeps lists of the watch still open and asks for the next one;
// the board hands them over only while the detail is open.
func (d *View) onEvents(msg tea.Msg) tea.Cmd {
	e := &d.events
	switch msg := msg.(type) {
	case EventsStartedMsg:
		if msg.Key != d.key || msg.Seq != e.seq {
			return nil
		}
		if msg.Err != nil {
			e.loading, e.err = false, msg.Err
			return nil
		}
		return nextEvents(msg.Key, msg.Seq, msg.Ch)
	case EventsMsg:
		if msg.Key != d.key || msg.Seq != e.seq {
			return nil
		}
		if msg.Closed {
			e.loading, e.stopped = false, true
			return nil
		}
		e.loading, e.done, e.list = false, true, msg.List
		return nextEvents(msg.Key, msg.Seq, msg.Ch)
	}
	return nil
}

// EventsStopped reports that the watch ended while the detail was open.
func (d View) EventsStopped() bool { return d.events.stopped }

// eventLines are the detail's Events section: age, type, reason, count,
// object and message, newest first; cluster text through safe.
func (d *View) eventLines(st *styles.Styles, now time.Time, width int) []string {
	e := d.events
	var out []string
	switch {
	case errors.Is(e.err, model.ErrEventsForbidden):
		out = append(out, st.ErrText.Render("events: cannot read (forbidden)"))
	case model.IsNotAvailable(e.err):
		out = append(out, format.Wrap(st.Dim.Render(format.Safe(e.err.Error())), width)...)
	case e.err != nil:
		out = append(out, format.Wrap(st.ErrText.Render("events: could not read: ")+format.Safe(e.err.Error()), width)...)
	case e.loading && !e.done:
		out = append(out, st.Dim.Render("reading events…"))
	case !e.done:
		out = append(out, st.Dim.Render("not read"))
	case len(e.list) == 0:
		out = append(out, st.Dim.Render("none recorded (Kubernetes keeps Events about an hour)"))
	}
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
		out = append(out, format.Wrap(head, width)...)
	}
	if e.stopped {
		out = append(out, st.WarnText.Render("▲ live updates stopped (the watch ended)"))
	}
	return out
}
