// Package logs is the log view, a component of the board: one App's pods'
// logs, one stream at a time, with search. It lists the pods and streams
// through its Reader, and asks the board by typed Actions to leave, to open
// help, or to offer a pod and container to pick.
package logs

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
)

// Reader lists an App's pods and streams one container's log (kube.Fleet:
// one LIST of the pods, then one pods/log GET per stream, closed when its
// context ends). Reading is not an action: read-only mode keeps it.
type Reader interface {
	LogPods(ctx context.Context, key model.Key) ([]model.LogPod, error)
	OpenLog(ctx context.Context, key model.Key, req model.LogRequest) (*logbuf.Feed, error)
}

// DefaultLines is how many log lines the view keeps unless told.
const DefaultLines = 5000

// podsTimeout bounds the LIST of the pods.
const podsTimeout = 15 * time.Second

// View is one App's pods' logs. One stream at a time: switching pod,
// container, previous or follow cancels it and opens another; leaving the
// view cancels it.
type View struct {
	ctx  context.Context // the board's: every request ends with it
	rd   Reader
	keys keymap.Map

	key     model.Key
	seq     uint64 // of the stream (or the LIST) whose answers count
	pods    []model.LogPod
	listing bool  // the LIST of pods is under way
	err     error // the LIST or the stream failed

	pod, container            string // "" until chosen
	previous, follow, wrap    bool
	cancel                    context.CancelFunc
	opening, streaming, ended bool

	ring   *logbuf.Ring // sanitised lines, oldest first
	top    int          // absolute number of the first line shown when not tailing
	tail   bool         // stick to the last line
	height int          // body lines
	header []string     // one or two lines, laid out in Update
	rows   []string     // the body, laid out in Update
	below  int          // lines after the last one shown (not tailing)

	search searchState
}

// PodsMsg is the Reader's list of the pods.
type PodsMsg struct {
	key  model.Key
	seq  uint64
	pods []model.LogPod
	err  error
}

// OpenedMsg is a stream opened (or refused).
type OpenedMsg struct {
	seq  uint64
	feed *logbuf.Feed
	err  error
}

// BatchMsg is lines (or the end) of a stream.
type BatchMsg struct {
	seq   uint64
	feed  *logbuf.Feed
	batch logbuf.Batch
}

// Open shows key's pods' logs, keeping the last lines lines: it lists the
// pods, then streams the default one (or asks for a pick when there are
// several). prev is the view it replaces, stopped.
func Open(ctx context.Context, rd Reader, k model.Key, lines int, keys keymap.Map, prev View) (View, tea.Cmd) {
	l := View{ctx: ctx, rd: rd, keys: keys, key: k, seq: prev.seq + 1, follow: true, tail: true,
		ring: logbuf.NewRingBytes(lines, logbuf.MaxBytes), listing: true}
	seq := l.seq
	return l, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, podsTimeout)
		defer cancel()
		pods, err := rd.LogPods(ctx, k)
		return PodsMsg{key: k, seq: seq, pods: pods, err: err}
	}
}

// Key is the App whose logs are shown.
func (l View) Key() model.Key { return l.key }

// Stop cancels the open stream: the pods/log request ends.
func (l *View) Stop() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.streaming, l.opening = false, false
	l.seq++ // answers of the stopped stream are stale
}

// Update takes the Reader's answers and the view's keys.
func (l View) Update(msg tea.Msg) (View, tea.Cmd, Action) {
	switch msg := msg.(type) {
	case PodsMsg:
		cmd, act := l.onPods(msg)
		return l, cmd, act
	case OpenedMsg, BatchMsg:
		return l, l.onStream(msg), nil
	case tea.KeyPressMsg:
		cmd, act := l.onKey(msg)
		return l, cmd, act
	}
	return l, nil, nil
}

func (l *View) onPods(msg PodsMsg) (tea.Cmd, Action) {
	if msg.key != l.key || msg.seq != l.seq {
		return nil, nil
	}
	l.listing, l.pods, l.err = false, msg.pods, msg.err
	i := model.DefaultLogPod(l.pods)
	if msg.err != nil || i < 0 {
		return nil, nil
	}
	if choices := choicesOf(l.pods); len(choices) > 1 {
		return nil, Pick{Choices: choices, Pod: l.pods[i].Name, Container: l.pods[i].AppContainer}
	}
	return l.Start(l.pods[i].Name, l.pods[i].AppContainer), nil
}

// Start (re)opens the stream of one container with the view's switches,
// from a fresh buffer: the last ring-capacity lines, then followed.
func (l *View) Start(pod, container string) tea.Cmd {
	l.Stop()
	rd := l.rd
	l.pod, l.container, l.err, l.ended = pod, container, nil, false
	l.ring.Reset()
	l.top, l.tail, l.opening = 0, true, true
	l.search.matchLine = -1
	ctx, cancel := context.WithCancel(l.ctx)
	l.cancel = cancel
	req := model.LogRequest{Pod: pod, Container: container, Previous: l.previous, Follow: l.follow,
		Tail: int64(l.ring.Cap()), MaxLines: l.ring.Cap()}
	k, seq := l.key, l.seq
	return func() tea.Msg {
		feed, err := rd.OpenLog(ctx, k, req)
		if err == nil && ctx.Err() != nil {
			return nil // closed meanwhile: the reader's goroutine ends with ctx
		}
		return OpenedMsg{seq: seq, feed: feed, err: err}
	}
}

// nextBatch waits for lines (or the end) of the feed; nothing when the
// stream was stopped.
func nextBatch(ctx context.Context, seq uint64, feed *logbuf.Feed) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-feed.Ready():
		}
		return BatchMsg{seq: seq, feed: feed, batch: feed.Take()}
	}
}

func (l *View) onStream(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case OpenedMsg:
		if msg.seq != l.seq || l.cancel == nil {
			return nil
		}
		l.opening = false
		if msg.err != nil {
			l.err = msg.err
			return nil
		}
		l.streaming = true
		return nextBatch(l.ctx, msg.seq, msg.feed)
	case BatchMsg:
		if msg.seq != l.seq {
			return nil
		}
		l.add(msg.batch)
		if msg.batch.Done {
			l.streaming, l.ended, l.err = false, true, msg.batch.Err
			return nil
		}
		return nextBatch(l.ctx, msg.seq, msg.feed)
	}
	return nil
}

// add keeps the batch's lines, sanitised once here (log text is hostile).
func (l *View) add(b logbuf.Batch) {
	l.ring.AddDropped(b.Dropped)
	for _, line := range b.Lines {
		l.ring.Push(format.Safe(strings.ReplaceAll(line, "\t", "    ")))
	}
}
