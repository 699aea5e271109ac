package ui

import (
	"cmp"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/format"
)

// The steps after the pull request, on a row whose promotion the board
// keeps: m merges it once its checks passed, S asks CD to sync the merged
// revision. Each asks first (dialog.PromoteStep); the use case decides.

type (
	promoteMergedMsg struct {
		d    *dialog.PromoteStep
		prom model.Promotion
		err  error
	}
	promoteSyncedMsg struct {
		d   *dialog.PromoteStep
		res promote.SyncResult
		err error
	}
)

func (promoteMergedMsg) promoteMsg() {}
func (promoteSyncedMsg) promoteMsg() {}

// openPromoteStep asks for kind on the selected row's kept promotion, or
// says why there is nothing to ask.
func (m *Model) openPromoteStep(kind dialog.StepKind) tea.Cmd {
	r := m.board.Selected()
	if r == nil {
		m.status = statusLine{text: "no app selected"}
		return nil
	}
	p, ok := m.promotions[r.Key()]
	if why := stepRefusal(kind, p, ok, m.opts.ReadOnly); why != "" {
		m.status = statusLine{text: r.Key().Name + ": " + why}
		return nil
	}
	d, cmd := dialog.NewPromoteStep(kind, p, r.Env.IsProduction(), &m.st, m.keys)
	m.dialogs.Push(d)
	return cmd
}

// stepRefusal is why kind cannot be asked for on p now ("" when it can):
// the promotion's state as the use case last read it.
func stepRefusal(kind dialog.StepKind, p model.Promotion, kept, readOnly bool) string {
	switch {
	case readOnly:
		return "the board is read-only: nothing is written"
	case !kept:
		return "no promotion on this row (p opens one)"
	case kind == dialog.StepMerge && p.Step != model.PromotionOpen:
		return fmt.Sprintf("pull request #%d is not open (%s)", p.PR, p.Step)
	case kind == dialog.StepMerge && p.Checks != string(promote.ChecksPassed) && p.Checks != string(promote.ChecksNone):
		return fmt.Sprintf("pull request #%d's checks are %s: it is merged once they pass", p.PR, cmp.Or(p.Checks, "not read yet"))
	case kind == dialog.StepSync && p.MergeSHA == "":
		return fmt.Sprintf("pull request #%d is not merged: there is no revision to sync (m merges it)", p.PR)
	}
	return ""
}

func (m *Model) mergePromotion(d *dialog.PromoteStep) tea.Cmd {
	d.Send()
	ctx, f, p, c := m.ctx, m.fleet, d.Promotion(), d.Confirmation()
	merge := func() tea.Msg {
		next, err := f.MergePromotion(ctx, p, c)
		return promoteMergedMsg{d: d, prom: next, err: err}
	}
	return tea.Batch(merge, m.startSpinner())
}

func (m *Model) syncPromotion(d *dialog.PromoteStep) tea.Cmd {
	d.Send()
	ctx, f, p, c := m.ctx, m.fleet, d.Promotion(), d.Confirmation()
	sync := func() tea.Msg {
		res, err := f.SyncPromotion(ctx, p, c)
		return promoteSyncedMsg{d: d, res: res, err: err}
	}
	return tea.Batch(sync, m.startSpinner())
}

// onPromoteStep shows a step's answer: the refusal in the dialog as it was
// said, else the row follows on.
func (m *Model) onPromoteStep(msg promoteMsg) tea.Cmd {
	switch msg := msg.(type) {
	case promoteMergedMsg:
		if msg.err != nil {
			msg.d.Failed(msg.err)
			return nil
		}
		m.dialogs.Remove(msg.d)
		m.status = statusLine{text: fmt.Sprintf("pull request #%d merged (%s)", msg.prom.PR, format.Safe(shortRev(msg.prom.MergeSHA))), keep: true}
		return m.keepPromotions(msg.prom)
	case promoteSyncedMsg:
		if msg.err != nil {
			msg.d.Failed(msg.err)
			return nil
		}
		m.dialogs.Remove(msg.d)
		how := "sync"
		if msg.res.Refresh {
			how = "refresh"
		}
		m.status = statusLine{text: fmt.Sprintf("CD asked to %s %s to %s as %s", how, format.Safe(msg.res.Application),
			format.Safe(shortRev(msg.res.Revision)), format.Safe(msg.res.By)), keep: true}
		return m.keepPromotions()
	}
	return nil
}

func shortRev(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
