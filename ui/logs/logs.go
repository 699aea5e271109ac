package ui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// LogReader lists an App's pods and streams one container's log
// (kube.Fleet: one LIST of the pods,
// then one pods/log GET per stream, closed when its context ends). Reading
// is not an action: read-only mode keeps it.
type LogReader interface {
	LogPods(ctx context.Context, key model.Key) ([]model.LogPod, error)
	OpenLog(ctx context.Context, key model.Key, req model.LogRequest) (*model.LogFeed, error)
}

// DefaultLogLines is how many log lines the view keeps (Options.LogLines).
const DefaultLogLines = 5000

// logPodsTimeout bounds the LIST of the pods.
const logPodsTimeout = 15 * time.Second

// logView is one App's pods' logs, over the board or the detail it was
// opened from. One stream at a time: switching pod, container, previous or
// follow cancels it and opens another; leaving the view cancels it.
type logView struct {
	key     model.Key
	from    screen
	seq     uint64 // of the stream (or the LIST) whose answers count
	pods    []model.LogPod
	listing bool  // the LIST of pods is under way
	err     error // the LIST or the stream failed

	pod, container            string // "" until chosen
	previous, follow, wrap    bool
	cancel                    context.CancelFunc
	opening, streaming, ended bool

	ring   *model.LineRing // sanitised lines, oldest first
	top    int             // absolute number of the first line shown when not tailing
	tail   bool            // stick to the last line
	height int             // body lines
	header []string        // one or two lines, laid out in Update
	rows   []string        // the body, laid out in Update
	below  int             // lines after the last one shown (not tailing)

	search searchState
}

type logPodsMsg struct {
	key  model.Key
	seq  uint64
	pods []model.LogPod
	err  error
}

type logOpenedMsg struct {
	seq  uint64
	feed *model.LogFeed
	err  error
}

type logBatchMsg struct {
	seq   uint64
	feed  *model.LogFeed
	batch model.LogBatch
}

func (m *Model) logLines() int {
	if m.opts.LogLines > 0 {
		return m.opts.LogLines
	}
	return DefaultLogLines
}

// openLogs shows row r's pods' logs: it lists the pods, then streams the
// default one (or offers a picker when there are several).
func (m *Model) openLogs(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	m.stopLogs()
	m.logs = logView{key: r.Key(), from: m.screen, seq: m.logs.seq + 1, follow: true, tail: true,
		ring: model.NewLineRingBytes(m.logLines(), model.MaxLogBytes)}
	m.screen = screenLogs
	rd := m.fleet
	m.logs.listing = true
	ctx, k, seq := m.ctx, m.logs.key, m.logs.seq
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, logPodsTimeout)
		defer cancel()
		pods, err := rd.LogPods(ctx, k)
		return logPodsMsg{key: k, seq: seq, pods: pods, err: err}
	}
}

// closeLogs goes back to where the view was opened and ends its stream.
func (m *Model) closeLogs() {
	m.stopLogs()
	m.screen = m.logs.from
}

// stopLogs cancels the open stream: the pods/log request ends.
func (m *Model) stopLogs() {
	l := &m.logs
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.streaming, l.opening = false, false
	l.seq++ // answers of the stopped stream are stale
}

func (m *Model) onLogPods(msg logPodsMsg) tea.Cmd {
	l := &m.logs
	if m.screen != screenLogs || msg.key != l.key || msg.seq != l.seq {
		return nil
	}
	l.listing, l.pods, l.err = false, msg.pods, msg.err
	i := model.DefaultLogPod(l.pods)
	if msg.err != nil || i < 0 {
		return nil
	}
	if choices := logChoices(l.pods); len(choices) > 1 {
		m.dialogs.push(m.logPicker(choices, l.pods[i].Name, l.pods[i].AppContainer))
		return nil
	}
	return m.startLog(l.pods[i].Name, l.pods[i].AppContainer)
}

// startLog (re)opens the stream of one container with the view's switches,
// from a fresh buffer: the last ring-capacity lines, then followed.
func (m *Model) startLog(pod, container string) tea.Cmd {
	m.stopLogs()
	l, rd := &m.logs, m.fleet
	l.pod, l.container, l.err, l.ended = pod, container, nil, false
	l.ring.Reset()
	l.top, l.tail, l.opening = 0, true, true
	l.search.matchLine = -1
	ctx, cancel := context.WithCancel(m.ctx)
	l.cancel = cancel
	req := model.LogRequest{Pod: pod, Container: container, Previous: l.previous, Follow: l.follow,
		Tail: int64(l.ring.Cap()), MaxLines: l.ring.Cap()}
	k, seq := l.key, l.seq
	return func() tea.Msg {
		feed, err := rd.OpenLog(ctx, k, req)
		if err == nil && ctx.Err() != nil {
			return nil // closed meanwhile: the reader's goroutine ends with ctx
		}
		return logOpenedMsg{seq: seq, feed: feed, err: err}
	}
}

// nextLogBatch waits for lines (or the end) of the feed; nothing when the
// stream was stopped.
func nextLogBatch(ctx context.Context, seq uint64, feed *model.LogFeed) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-feed.Ready():
		}
		return logBatchMsg{seq: seq, feed: feed, batch: feed.Take()}
	}
}

func (m *Model) onLogMsg(msg tea.Msg) tea.Cmd {
	l := &m.logs
	switch msg := msg.(type) {
	case logOpenedMsg:
		if msg.seq != l.seq || l.cancel == nil {
			return nil
		}
		l.opening = false
		if msg.err != nil {
			l.err = msg.err
			return nil
		}
		l.streaming = true
		return nextLogBatch(m.ctx, msg.seq, msg.feed)
	case logBatchMsg:
		if msg.seq != l.seq {
			return nil
		}
		l.add(msg.batch)
		if msg.batch.Done {
			l.streaming, l.ended, l.err = false, true, msg.batch.Err
			return nil
		}
		return nextLogBatch(m.ctx, msg.seq, msg.feed)
	}
	return nil
}

// add keeps the batch's lines, sanitised once here (log text is hostile).
func (l *logView) add(b model.LogBatch) {
	l.ring.AddDropped(b.Dropped)
	for _, line := range b.Lines {
		l.ring.Push(format.Safe(strings.ReplaceAll(line, "\t", "    ")))
	}
}
