package ui

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/logs"
)

// logSource is a Restarter that also reads logs, as kube.Fleet does: the
// test says which pods the LIST answers, and pushes each opened stream's
// lines itself. Every OpenLog is recorded with its context, so a test can
// see the stream's request end.
type logSource struct {
	*fakeRestarter
	mu      sync.Mutex
	pods    []model.LogPod
	podsErr error
	openErr error
	opened  []openedLog
}

type openedLog struct {
	ctx  context.Context
	req  model.LogRequest
	feed *logbuf.Feed
}

func (s *logSource) LogPods(context.Context, model.Key) ([]model.LogPod, error) {
	return s.pods, s.podsErr
}

func (s *logSource) OpenLog(ctx context.Context, _ model.Key, req model.LogRequest) (*logbuf.Feed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openErr != nil {
		return nil, s.openErr
	}
	f := logbuf.NewFeed(req.MaxLines)
	s.opened = append(s.opened, openedLog{ctx: ctx, req: req, feed: f})
	return f, nil
}

func (s *logSource) streams() []openedLog {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]openedLog(nil), s.opened...)
}

func (s *logSource) last(t *testing.T) openedLog {
	t.Helper()
	o := s.streams()
	if len(o) == 0 {
		t.Fatal("no stream was opened")
	}
	return o[len(o)-1]
}

// logDriver runs the board's Cmds in goroutines, as a Program does, and
// feeds the log view's answers back; other answers are dropped.
type logDriver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
}

func newLogDriver(t *testing.T, m *Model) *logDriver {
	return &logDriver{t: t, m: m, msgs: make(chan tea.Msg, 64)}
}

func (d *logDriver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				d.run(c)
			}
		case logs.PodsMsg, logs.OpenedMsg, logs.BatchMsg:
			d.msgs <- msg
		}
	}()
}

// press sends keys and applies the answers that arrive within a moment.
func (d *logDriver) press(keys ...string) {
	for _, k := range keys {
		_, cmd := d.m.Update(keyMsg(k))
		d.run(cmd)
		d.settle(50 * time.Millisecond)
	}
}

func (d *logDriver) settle(quiet time.Duration) {
	for {
		select {
		case msg := <-d.msgs:
			_, cmd := d.m.Update(msg)
			d.run(cmd)
		case <-time.After(quiet):
			return
		}
	}
}

// until applies answers until ok holds (fails after five seconds).
func (d *logDriver) until(what string, ok func() bool) {
	d.t.Helper()
	deadline := time.After(5 * time.Second)
	for !ok() {
		select {
		case msg := <-d.msgs:
			_, cmd := d.m.Update(msg)
			d.run(cmd)
		case <-deadline:
			d.t.Fatalf("%s: never happened; the view:\n%s", what, plainView(d.m))
		}
	}
}

// push writes lines to the stream and waits until the view holds the last.
func (d *logDriver) push(f *logbuf.Feed, lines ...string) {
	d.t.Helper()
	for _, l := range lines {
		f.Push(l)
	}
	n := d.m.logs.Lines().Dropped() + d.m.logs.Lines().Len() + len(lines)
	d.until("the pushed lines arrive", func() bool { return d.m.logs.Lines().Dropped()+d.m.logs.Lines().Len() >= n })
}

func onePod(name string) model.LogPod {
	return model.LogPod{Name: name, Containers: []string{"web"}, AppContainer: "web", Created: t0.Add(-time.Hour), Ready: true}
}

// logsOn is the board over the fixture fleet with web selected and src
// reading its logs.
func logsOn(t *testing.T, src *logSource, opts Options, w, h int) *logDriver {
	t.Helper()
	if src.fakeRestarter == nil {
		src.fakeRestarter = allowed()
	}
	m, store := newTestModel(t, src, orgAdmin(), opts, w, h)
	store.upsert(floatingApp("", 2))
	m.Update(snapshotMsg{store.Snapshot()})
	selectApp(t, m, "web")
	return newLogDriver(t, m)
}

func ended(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}
