// Package detail is one app in full, a component of the board: every fact
// of its row, the digests its pods run (read when opened and when the pods
// change) and its Events (followed while open). Keys that act on the app
// are asked of the board as typed actions.
package detail

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Reader reads what the detail shows besides the row: the digests the
// app's pods run and its Events.
type Reader interface {
	RunningDigests(ctx context.Context, key model.Key) (model.PodDigests, error)
	WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error)
}

// View shows one app in full. It re-reads the app from each new snapshot
// (Layout's Facts), so a rollout is followed live while it is open.
type View struct {
	ctx      context.Context // the board's: every read ends with it
	rd       Reader
	keys     keymap.Map
	key      model.Key
	offset   int
	height   int
	lines    int             // len(rendered), to bound scrolling
	rendered []string        // the detail's lines, laid out in Layout
	decision *model.Decision // what this user may do here (from CheckRestart)
	digests  digestRead      // what the pods run, read when opened
	events   eventsWatch     // the app's Events, followed while open
}

// Facts are what the board knows of the app besides its row.
type Facts struct {
	Row        *model.AppView // nil: no longer on the board
	Now        time.Time
	Progress   string           // the board's rollout cell, for a rollout in progress
	Restarting time.Time        // when this user's restart of it was asked (zero: none)
	MayDo      string           // whether this user may restart it, in words
	Promotion  *model.Promotion // its promotion as last observed (nil: none kept)
}

// Action is what a key asks of the board; nil: nothing.
type Action int

const (
	None    Action = iota // nothing besides what the view did itself
	Back                  // close the detail (its Events watch already stopped)
	Restart               // restart the app
	YAML                  // the app as YAML
	Logs                  // the pods' logs
	Login                 // log in again
	Help                  // help over the detail
	Reread                // the pods changed during a read: read them again if still open
)

// Open shows r in full: it reads the pods' digests and starts following
// the Events. prev is the view it replaces: its watch stops, and its
// answers still on their way become stale.
func Open(ctx context.Context, rd Reader, r *model.AppView, keys keymap.Map, prev View) (View, tea.Cmd) {
	prev.Close()
	d := View{ctx: ctx, rd: rd, keys: keys, key: r.Key(), digests: digestRead{seq: prev.digests.seq},
		events: eventsWatch{seq: prev.events.seq}}
	read := tea.Batch(d.ReadDigests(r), d.watchEvents())
	return d, read
}

// Key is the app shown.
func (d View) Key() model.Key { return d.key }

// Decision is what this user may do here, once checked (nil: not yet).
func (d View) Decision() *model.Decision { return d.decision }

// SetDecision keeps the answer of the restart check for the app shown.
func (d *View) SetDecision(dec model.Decision) { d.decision = &dec }

// Update scrolls, takes the readers' answers, and turns the keys that act
// on the app into Actions.
func (d View) Update(msg tea.Msg) (View, tea.Cmd, Action) {
	k := d.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Back, k.Quit), msg.String() == "backspace":
			d.Close()
			return d, nil, Back // q goes back, as in k9s and less; ctrl+c quits
		case key.Matches(msg, k.Up):
			d.scroll(-1)
		case key.Matches(msg, k.Down):
			d.scroll(1)
		case k.Paging(msg):
			d.scroll(k.PageStep(msg, d.height))
		case key.Matches(msg, k.Home):
			d.offset = 0
		case key.Matches(msg, k.End):
			d.scroll(d.lines)
		case key.Matches(msg, k.Restart):
			return d, nil, Restart
		case key.Matches(msg, k.YAML):
			return d, nil, YAML
		case key.Matches(msg, k.Logs):
			return d, nil, Logs
		case key.Matches(msg, k.Login):
			return d, nil, Login
		case key.Matches(msg, k.Help):
			return d, nil, Help
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			d.scroll(-3)
		case tea.MouseWheelDown:
			d.scroll(3)
		}
	case DigestsMsg:
		return d, nil, d.onDigests(msg)
	case EventsStartedMsg, EventsMsg:
		return d, d.onEvents(msg), None
	}
	return d, nil, None
}

func (d *View) scroll(delta int) {
	d.offset = max(0, min(d.offset+delta, d.lines-d.height))
}

// Layout lays the detail out for a screen of width and height.
func (d *View) Layout(st *styles.Styles, f Facts, width, height int) {
	body := height - 3
	d.height = body
	if f.Row == nil {
		d.rendered = []string{st.WarnText.Render("▲ this app is no longer on the board (deleted, or out of view)")}
	} else {
		d.rendered = d.detailLines(st, f, width-2)
	}
	d.lines = len(d.rendered)
	d.offset = max(0, min(d.offset, d.lines-body))
}

// Render writes the detail's body, height-3 lines w columns wide; Hint is
// its key line.
func (d View) Render(sb *strings.Builder, w, height int) {
	for i := range height - 3 {
		line := ""
		if j := d.offset + i; j < len(d.rendered) {
			line = " " + d.rendered[j]
		}
		sb.WriteString(format.FitLine(line, w))
		sb.WriteByte('\n')
	}
}

// Hint is the detail's key line under a screen of height.
func (d View) Hint(st *styles.Styles, w, height int) string {
	k, body := d.keys, height-3
	hint := k.Quit.Help().Key + "/" + k.Back.Help().Key + " back · ↑/↓ scroll · " + k.Restart.Help().Key + " " + k.Restart.Help().Desc + " · " + k.Help.Help().Key + " help"
	if len(d.rendered) > body {
		hint += fmt.Sprintf(" · %d/%d", d.offset+1, len(d.rendered)-body+1)
	}
	return format.FitLine(st.Dim.Render(hint), w)
}

// Offset is the first line shown.
func (d View) Offset() int { return d.offset }

// Lines is how many lines the detail has.
func (d View) Lines() int { return d.lines }
