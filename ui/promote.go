package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/board"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/format"
)

// The board's promotions: p opens the promote dialog on the selected row
// (or the marked set); once the pull request is open its promotion is kept
// here by row and read again on a poll (GitHub has no watch) until it is
// live or stops, the row's PROMOTE column and the detail showing it. The
// promotions in flight are found again from the open pull requests once
// the clusters settled: nothing depends on local state.

// defaultPromotePoll is how often a promotion in flight is read again.
const defaultPromotePoll = 5 * time.Second

// promoteMsg are the promotion Cmds' answers, routed to onPromote.
type promoteMsg interface{ promoteMsg() }

type (
	promotePlannedMsg struct {
		d   *dialog.Promote
		one promote.Planned
		set promote.PlannedSet
		err error
	}
	promoteOpenedMsg struct {
		d     *dialog.Promote
		proms []model.Promotion
		err   error
	}
	promotionsMsg struct {
		found  map[model.Key]model.Promotion
		unread map[model.Key]string // the polled promotions that could not be read again, and why
		err    error
		poll   bool // an answer to the poll (not the start's lookup)
	}
	promotePollMsg struct{}
)

func (promotePlannedMsg) promoteMsg() {}
func (promoteOpenedMsg) promoteMsg()  {}
func (promotionsMsg) promoteMsg()     {}
func (promotePollMsg) promoteMsg()    {}

// openPromote opens the dialog on the marked set, else the selected row,
// and plans the newest release.
func (m *Model) openPromote() tea.Cmd {
	rows := m.board.MarkedRows()
	if len(rows) == 0 {
		if r := m.board.Selected(); r != nil {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		m.status = statusLine{text: "no app selected"}
		return nil
	}
	d := dialog.NewPromote(rows, &m.st, m.keys)
	m.dialogs.Push(d)
	if m.opts.ReadOnly {
		d.Refuse("the board is read-only: nothing is written")
		return nil
	}
	return m.planPromotion(d)
}

func (m *Model) planPromotion(d *dialog.Promote) tea.Cmd {
	d.Planning()
	ctx, f, keys, to := m.ctx, m.fleet, d.Keys(), d.To()
	plan := func() tea.Msg {
		if len(keys) > 1 {
			s, err := f.PlanPromotionSet(ctx, keys, to)
			return promotePlannedMsg{d: d, set: s, err: err}
		}
		p, err := f.PlanPromotion(ctx, keys[0], to)
		return promotePlannedMsg{d: d, one: p, err: err}
	}
	return tea.Batch(plan, m.startSpinner())
}

func (m *Model) proposePromotion(d *dialog.Promote) tea.Cmd {
	d.Send()
	ctx, f, c := m.ctx, m.fleet, d.Confirmation()
	one, set, isSet := d.Plan(), d.Set(), d.IsSet()
	propose := func() tea.Msg {
		if isSet {
			proms, err := f.ProposePromotionSet(ctx, set, c)
			return promoteOpenedMsg{d: d, proms: proms, err: err}
		}
		p, err := f.ProposePromotion(ctx, one, c)
		return promoteOpenedMsg{d: d, proms: []model.Promotion{p}, err: err}
	}
	return tea.Batch(propose, m.startSpinner())
}

func (m *Model) onPromote(msg promoteMsg) tea.Cmd {
	switch msg := msg.(type) {
	case promotePlannedMsg:
		if msg.d.IsSet() {
			return msg.d.PlannedSet(msg.set, msg.err)
		}
		return msg.d.Planned(msg.one, msg.err)
	case promoteOpenedMsg:
		if msg.err != nil {
			return msg.d.Failed(msg.err)
		}
		m.dialogs.Remove(msg.d)
		if len(msg.proms) > 0 {
			p := msg.proms[0]
			m.status = statusLine{text: fmt.Sprintf("pull request #%d opened: %s", p.PR, format.OneLine(p.URL)), keep: true}
		}
		return m.keepPromotions(msg.proms...)
	case promotionsMsg:
		if msg.poll {
			m.promoteFollowing = false
		}
		if msg.err != nil && !model.IsNotAvailable(msg.err) {
			m.status = statusLine{text: "promotions: " + format.OneLine(msg.err.Error()), bad: true}
		}
		proms := make([]model.Promotion, 0, len(msg.found)+len(msg.unread))
		for _, p := range msg.found {
			proms = append(proms, p)
		}
		for k, why := range msg.unread { // kept as last observed, said to be so
			if p, ok := m.promotions[k]; ok {
				p.Unread = why
				proms = append(proms, p)
			}
		}
		return m.keepPromotions(proms...)
	case promotePollMsg:
		return m.pollPromotions()
	}
	return m.onPromoteStep(msg)
}

// keepPromotions records proms and arms the poll while one is in flight.
func (m *Model) keepPromotions(proms ...model.Promotion) tea.Cmd {
	if m.promotions == nil {
		m.promotions = map[model.Key]model.Promotion{}
	}
	for _, p := range proms {
		m.promotions[p.Key] = p
	}
	m.board.SetPromotions(promoteCells(m.promotions))
	if m.promoteFollowing || !anyInFlight(m.promotions) {
		return nil
	}
	m.promoteFollowing = true
	return tea.Tick(m.promotePoll(), func(time.Time) tea.Msg { return promotePollMsg{} })
}

func anyInFlight(proms map[model.Key]model.Promotion) bool {
	for _, p := range proms {
		if p.Step != model.PromotionLive && !p.Step.Exit() {
			return true
		}
	}
	return false
}

// pollPromotions reads every promotion in flight again, one after the
// other, off the event loop.
func (m *Model) pollPromotions() tea.Cmd {
	var todo []model.Promotion
	for _, p := range m.promotions {
		if p.Step != model.PromotionLive && !p.Step.Exit() {
			todo = append(todo, p)
		}
	}
	ctx, f := m.ctx, m.fleet
	return func() tea.Msg {
		found, unread := map[model.Key]model.Promotion{}, map[model.Key]string{}
		var first error
		for _, p := range todo {
			next, err := f.FollowPromotion(ctx, p)
			if err != nil {
				first = cmpOr(first, err)
				unread[p.Key] = err.Error()
				continue
			}
			next.Unread = "" // read now
			found[p.Key] = next
		}
		return promotionsMsg{found: found, unread: unread, err: first, poll: true}
	}
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func (m *Model) promotePoll() time.Duration {
	if m.opts.PromotePoll > 0 {
		return m.opts.PromotePoll
	}
	return defaultPromotePoll
}

// findPromotions finds the promotions in flight once the clusters settled
// (the rows and their CD Applications read).
func findPromotions(ctx context.Context, f Fleet) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-f.Settled():
		}
		found, err := f.PromotionsInFlight(ctx)
		return promotionsMsg{found: found, err: err}
	}
}

// promoteCells are the PROMOTE column's cells by row.
func promoteCells(proms map[model.Key]model.Promotion) map[model.Key]string {
	out := make(map[model.Key]string, len(proms))
	for k, p := range proms {
		out[k] = board.PromoteCell(p)
	}
	return out
}
