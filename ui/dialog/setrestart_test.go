package dialog

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// setRestarter allows the rows named in allowed and restarts each at once.
type setRestarter struct {
	allowed map[string]bool
	got     restart.SetInput
}

func (f *setRestarter) Check(_ context.Context, in restart.CheckInput) (restart.Checked, error) {
	r := in.Row
	return restart.Checked{Key: r.Key(), Plan: model.PlanRestart(r),
		Decision: model.Decision{Allowed: f.allowed[r.App], Reason: "forbidden here"}}, nil
}

func (f *setRestarter) RestartSet(_ context.Context, in restart.SetInput) (restart.SetOutput, error) {
	f.got = in
	for _, k := range in.Plan.Allowed {
		in.Report(restart.Update{Key: k, Status: restart.Done})
	}
	return restart.SetOutput{Summary: restart.Summary{Done: len(in.Plan.Allowed)}}, nil
}

// messages runs cmd and every Cmd it batches, and returns their messages.
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, messages(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// A set restart checks every row, lists the refused, takes the typed count
// and runs the allowed rows through the use case bound to their checks,
// showing each row's progress and then the summary.
func TestSetRestartChecksAsksAndRuns(t *testing.T) {
	keys, st := keymap.New(), styles.New(true, true)
	rows := []*model.AppView{row("ns", "api", model.EnvDev), row("ns", "web", model.EnvDev), row("ns", "db", model.EnvDev)}
	f := &setRestarter{allowed: map[string]bool{"api": true, "web": true}}
	d := NewSetRestart(rows, "ana", 2, &st, keys)
	s := Stack{d}
	for _, msg := range messages(d.CheckRows(context.Background(), f, rows)) {
		msg.(SetCheckedMsg).Apply(s)
	}
	if d.Phase() != SetAsk || len(d.Allowed()) != 2 {
		t.Fatalf("after the checks: phase %v, allowed %v", d.Phase(), d.Allowed())
	}
	box := ansi.Strip(d.Render(&st, 100, ""))
	if !strings.Contains(box, "1 refused") || !strings.Contains(box, "ns/db (c): forbidden here") {
		t.Fatalf("the refused row is not listed:\n%s", box)
	}
	if act := press(d, "3", "enter"); act != (None{}) || d.Phase() != SetAsk {
		t.Fatalf("a wrong count confirmed: %#v", act)
	}
	press(d, "backspace")
	act := press(d, "2", "enter")
	if act != (RestartSet{d}) {
		t.Fatalf("the typed count did not confirm: %#v", act)
	}
	var done []model.Key
	msgs := messages(d.Run(context.Background(), f))
	for len(msgs) > 0 {
		var next tea.Cmd
		switch msg := msgs[0].(type) {
		case SetProgressMsg:
			var u restart.Update
			u, next = msg.Apply()
			done = append(done, u.Key)
		case SetDoneMsg:
			if text, bad := msg.Apply(); !bad || !strings.Contains(text, "2 restarted") || !strings.Contains(text, "1 refused") {
				t.Errorf("summary %q (bad %v; a row was refused)", text, bad)
			}
		}
		msgs = messages(next)
	}
	if len(done) != 2 || f.got.Confirm.Answer != "2" || f.got.MaxParallel != 2 || len(f.got.Plan.Allowed) != 2 {
		t.Fatalf("ran %v with %+v", done, f.got)
	}
	if d.Phase() != SetDone || !strings.Contains(ansi.Strip(d.Render(&st, 100, "")), "ns/api restarted") {
		t.Fatalf("phase %v:\n%s", d.Phase(), ansi.Strip(d.Render(&st, 100, "")))
	}
}
