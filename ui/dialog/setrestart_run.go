package dialog

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// SetRestarter is the restart use case a set runs through: each row
// checked, then the set restarted bound to those checks, at most the limit
// at once, each slot held until its rollout ends (the board's Restarter).
type SetRestarter interface {
	Check(ctx context.Context, in restart.CheckInput) (restart.Checked, error)
	RestartSet(ctx context.Context, in restart.SetInput) (restart.SetOutput, error)
}

type (
	// SetCheckedMsg is one row's check.
	SetCheckedMsg struct {
		d   *SetRestart
		chk restart.Checked
	}
	// SetProgressMsg is one row's progress while the set runs.
	SetProgressMsg struct {
		d  *SetRestart
		u  restart.Update
		ch <-chan tea.Msg
	}
	// SetDoneMsg is the end of the set.
	SetDoneMsg struct {
		d   *SetRestart
		sum restart.Summary
	}
)

// CheckRows checks each of rows through r (a refusal is in its answer);
// with none to check it asks at once.
func (d *SetRestart) CheckRows(ctx context.Context, r SetRestarter, rows []*model.AppView) tea.Cmd {
	d.checking = len(rows)
	if len(rows) == 0 {
		return d.ask()
	}
	cmds := make([]tea.Cmd, 0, len(rows))
	for _, row := range rows {
		cmds = append(cmds, func() tea.Msg {
			chk, _ := r.Check(ctx, restart.CheckInput{Row: row})
			return SetCheckedMsg{d: d, chk: chk}
		})
	}
	return tea.Batch(cmds...)
}

// Apply records the check on its dialog while that is the set restart
// open on s, checking.
func (msg SetCheckedMsg) Apply(s Stack) tea.Cmd {
	if Find[*SetRestart](s) != msg.d {
		return nil
	}
	return msg.d.checked(msg.chk)
}

// Run restarts the confirmed set through r; its updates come back one
// message at a time through a channel. Ending ctx (quitting) stops new
// starts.
func (d *SetRestart) Run(ctx context.Context, r SetRestarter) tea.Cmd {
	ch := make(chan tea.Msg, 16)
	in := d.input(func(u restart.Update) { ch <- SetProgressMsg{d: d, u: u, ch: ch} })
	go func() {
		out, _ := r.RestartSet(ctx, in) // the summary says what an error would
		ch <- SetDoneMsg{d: d, sum: out.Summary}
		close(ch)
	}()
	return waitSet(ch)
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

// Apply shows the row's progress on its dialog and waits for the next
// message; the root follows the row's restart by the Update.
func (msg SetProgressMsg) Apply() (restart.Update, tea.Cmd) {
	msg.d.status[msg.u.Key] = msg.u
	return msg.u, waitSet(msg.ch)
}

// Apply shows the summary on its dialog until closed and is it in words;
// bad: something failed, did not start or was refused.
func (msg SetDoneMsg) Apply() (text string, bad bool) {
	d := msg.d
	d.summary, d.phase = &msg.sum, SetDone
	return d.summaryText(), !msg.sum.OK() || len(d.refused) > 0
}
