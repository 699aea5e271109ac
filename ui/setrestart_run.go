package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// RolloutWaiter is optional on a Restarter: it follows a restart's rollout
// until it completes or gets stuck. With it, a set restart holds each slot
// until the rollout ends, so the limit bounds rollouts, not only patches
// (kube.Fleet implements it).
type RolloutWaiter interface {
	WaitRollout(ctx context.Context, key model.Key, progress func(model.WorkloadView)) error
}

// defaultSetLimit is how many restarts of a set run at once unless
// Options.SetRestartLimit says otherwise.
const defaultSetLimit = 3

// setRolloutTimeout bounds one rollout of a set; a longer one counts as failed.
const setRolloutTimeout = 10 * time.Minute

type (
	setCheckedMsg struct {
		d   *setRestartDialog
		key model.Key
		dec model.Decision
	}
	setProgressMsg struct {
		d  *setRestartDialog
		u  restart.Update
		ch <-chan tea.Msg
	}
	setDoneMsg struct {
		d   *setRestartDialog
		sum restart.Summary
	}
)

// openSetRestart is R: one dialog for every marked row, checked first.
func (m *Model) openSetRestart() tea.Cmd {
	rows := m.marks.rows(m.board.snap)
	if len(rows) == 0 {
		m.status = statusLine{text: "no rows marked — space marks a row, * every shown row"}
		return nil
	}
	limit := m.opts.SetRestartLimit
	if limit <= 0 {
		limit = defaultSetLimit
	}
	d := newSetRestart(rows, m.user(), limit, &m.st, m.keys)
	m.dialogs.push(d)
	var cmds []tea.Cmd
	for _, r := range rows {
		if why := m.refusal(r); why != "" {
			d.refused[r.Key()] = why
			continue
		}
		d.checking++
		cmds = append(cmds, checkSetRow(m.ctx, m.restarter, d, r.Key()))
	}
	if d.checking == 0 {
		d.checking = 1
		return d.checked(model.Key{}, model.Decision{Allowed: true})
	}
	return tea.Batch(append(cmds, m.startSpinner())...)
}

func checkSetRow(ctx context.Context, r Restarter, d *setRestartDialog, k model.Key) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		return setCheckedMsg{d: d, key: k, dec: r.CheckRestart(ctx, k)}
	}
}

// runSet starts the confirmed set: restartset decides when each starts;
// its updates come back one message at a time through a channel. Quitting
// cancels m.ctx, so nothing new starts.
func (m *Model) runSet(d *setRestartDialog) tea.Cmd {
	ch := make(chan tea.Msg, 16)
	r := m.restarter
	for _, k := range d.allowed {
		m.inflight[k] = &inflight{key: k, started: m.now(), prevRestart: m.rowRestartedAt(k)}
	}
	go func() {
		waiter, follows := r.(RolloutWaiter)
		step := func(ctx context.Context, k model.Key, note func(string)) error {
			sendCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
			err := r.Restart(sendCtx, k)
			cancel()
			if err != nil || !follows {
				return err
			}
			note("rolling out")
			rollCtx, cancel := context.WithTimeout(ctx, setRolloutTimeout)
			defer cancel()
			return waiter.WaitRollout(rollCtx, k, func(v model.WorkloadView) {
				note(fmt.Sprintf("%s, %d/%d updated, %d ready", orDash(string(v.Rollout)), v.Updated, v.Desired, v.Ready))
			})
		}
		sum := restart.Run(m.ctx, d.allowed, restart.Options{MaxParallel: d.limit, ContinueOnError: d.cont}, step,
			func(u restart.Update) { ch <- setProgressMsg{d: d, u: u, ch: ch} })
		ch <- setDoneMsg{d: d, sum: sum}
		close(ch)
	}()
	return tea.Batch(waitSet(ch), m.startSpinner())
}

func waitSet(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

func (m *Model) rowRestartedAt(k model.Key) string {
	if r := m.board.find(k); r != nil {
		return r.Workload.RestartedAt
	}
	return ""
}

func (m *Model) onSetMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case setCheckedMsg:
		if dialogOf[*setRestartDialog](m.dialogs) != msg.d || msg.d.phase != setChecking {
			return nil
		}
		return msg.d.checked(msg.key, msg.dec)
	case setProgressMsg:
		msg.d.status[msg.u.Key] = msg.u
		switch msg.u.Status {
		case restart.Failed, restart.NotStarted:
			delete(m.inflight, msg.u.Key)
		case restart.Done:
			if f := m.inflight[msg.u.Key]; f != nil {
				f.requested = true // the board follows its rollout like a single restart's
			}
		}
		return waitSet(msg.ch)
	case setDoneMsg:
		msg.d.summary, msg.d.phase = &msg.sum, setDone
		m.marks.clear()
		m.status = statusLine{text: msg.d.summaryText(), bad: !msg.sum.OK() || len(msg.d.refused) > 0}
	}
	return nil
}
