package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// setRestarter refuses some apps at the check, fails one restart, and
// counts how many restarts run at once.
type setRestarter struct {
	noFleet // reads nothing
	refuse  map[string]string
	fail    string

	mu       sync.Mutex
	now, max int
	started  []string
}

func (s *setRestarter) CheckRestart(_ context.Context, k model.Key) model.Decision {
	if why, ok := s.refuse[k.Name]; ok {
		return model.Decision{Reason: why}
	}
	return model.Decision{Allowed: true, Reason: "ok"}
}

func (s *setRestarter) RestartWith(_ context.Context, k model.Key, _ restart.Request) (restart.Result, error) {
	s.mu.Lock()
	s.now++
	s.max = max(s.max, s.now)
	s.started = append(s.started, k.Name)
	s.mu.Unlock()
	if k.Name == s.fail {
		s.done()
		return restart.Result{}, errors.New("patch refused by the API server")
	}
	return restart.Result{}, nil
}

// WaitRollout: the rollout takes a while; until it ends the restart counts
// as under way.
func (s *setRestarter) WaitRollout(_ context.Context, _ model.Key, progress func(model.WorkloadView)) error {
	progress(model.WorkloadView{Rollout: model.RolloutProgressing, Desired: 2})
	time.Sleep(10 * time.Millisecond)
	s.done()
	return nil
}

func (s *setRestarter) done() {
	s.mu.Lock()
	s.now--
	s.mu.Unlock()
}

// drive runs cmd and feeds back the set dialog's messages until none is left.
func drive(m *Model, cmd tea.Cmd) {
	feedBack(m, cmd, 2*time.Second, func(msg tea.Msg) bool {
		switch msg.(type) {
		case dialog.SetCheckedMsg, dialog.SetProgressMsg, dialog.SetDoneMsg:
			return true
		}
		return false
	})
}

func setModel(t *testing.T, r actions, n int, extra ...model.AppView) *Model {
	t.Helper()
	src := newStoreSource()
	src.upsert(extra...)
	for i := range n {
		src.upsert(app{ns: "hanzo-testnet", name: fmt.Sprintf("svc-%02d", i), declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	}
	src.upsert(app{ns: "hanzo-testnet", name: "frozen", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1, paused: true}.build())
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: t0.Add(-time.Hour)}})
	dark := true
	id := orgAdmin()
	m := newModel(context.Background(), fleetOf(src, r), id, Options{Now: fixedNow, DarkBackground: &dark})
	m.Update(identityMsg{id.Current()})
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 50})
	m.Update(snapshotMsg{src.Snapshot()})
	return m
}

func keyDrive(m *Model, keys ...string) {
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		drive(m, cmd)
	}
}

// Marking 14 rows and restarting them: the dialog lists exactly the rows
// that will be refused before asking; the typed count confirms; never more
// than 3 restarts at once; the summary stays.
func TestSetRestartDialog(t *testing.T) {
	r := &setRestarter{refuse: map[string]string{"svc-05": "Kubernetes RBAC does not allow it"}}
	m := setModel(t, r, 13)
	keyDrive(m, "*", "R")
	d := dialog.Find[*dialog.SetRestart](m.dialogs)
	if d == nil || d.Phase() != dialog.SetAsk {
		t.Fatalf("R did not open the set dialog at its question:\n%s", plainView(m))
	}
	v := plainView(m)
	for _, want := range []string{"Restart 14 marked apps?", "Rolling restart of 12 apps", "at most 3 at once", "✖ 2 refused", "svc-05", "RBAC", "frozen", "paused", "type 12:"} {
		if !strings.Contains(v, want) {
			t.Errorf("dialog lacks %q:\n%s", want, v)
		}
	}
	// The dialog names what it restarts, not only how many; never a refused one.
	apps := ""
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "apps:") || (apps != "" && strings.Contains(l, "hanzo-testnet/svc-") && !strings.Contains(l, ":")) {
			apps += l
		}
	}
	for _, want := range []string{"hanzo-testnet/svc-00,", "hanzo-testnet/svc-04,", "hanzo-testnet/svc-12"} {
		if !strings.Contains(apps, want) {
			t.Errorf("the apps list lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(apps, "svc-05") || strings.Contains(apps, "frozen") {
		t.Errorf("the apps list names a refused app:\n%s", v)
	}
	typeText(m, "11")
	keyDrive(m, "enter")
	if d.Phase() != dialog.SetAsk || len(r.started) != 0 || !strings.Contains(plainView(m), `type exactly "12"`) {
		t.Fatalf("a wrong count must not start anything:\n%s", plainView(m))
	}
	keyDrive(m, "backspace", "backspace", "1", "2", "enter")
	if d.Phase() != dialog.SetDone {
		t.Fatalf("the set did not finish:\n%s", plainView(m))
	}
	if len(r.started) != 12 || slices.Contains(r.started, "svc-05") || slices.Contains(r.started, "frozen") {
		t.Errorf("started %v; want the 12 allowed, none refused", r.started)
	}
	if r.max > 3 || r.max < 2 {
		t.Errorf("at most %d restarts at once, want 3", r.max)
	}
	v = plainView(m)
	if !strings.Contains(v, "set restart: 12 restarted, 0 failed, 0 not started, 2 refused") || m.board.MarkCount() != 0 {
		t.Errorf("summary missing or marks kept (%d):\n%s", m.board.MarkCount(), v)
	}
	keyDrive(m, "enter")
	if dialog.Find[*dialog.SetRestart](m.dialogs) != nil || !strings.Contains(m.status.text, "12 restarted") {
		t.Errorf("closing must leave the summary on the status line: %q", m.status.text)
	}
}

// A set too long to name in full names the first rows, up to four lines,
// and says how many more: together exactly the allowed set (60; the paused
// "frozen" is refused).
func TestSetRestartNamesTheFirstAndCountsTheRest(t *testing.T) {
	m := setModel(t, &setRestarter{}, 60)
	keyDrive(m, "*", "R")
	var names []string
	more := 0
	inList := false
	for _, l := range strings.Split(plainView(m), "\n") {
		_, l, inBox := strings.Cut(l, "│")
		l, _, _ = strings.Cut(l, "│")
		if !inBox || !(inList || strings.Contains(l, "apps:")) {
			continue
		}
		if inList && !strings.Contains(l, "hanzo-testnet/") {
			break
		}
		inList = true
		for f := range strings.FieldsSeq(strings.NewReplacer(",", " ", "apps:", "").Replace(l)) {
			switch {
			case strings.HasPrefix(f, "hanzo-testnet/"):
				names = append(names, f)
			case strings.HasPrefix(f, "+"):
				fmt.Sscanf(f, "+%d", &more)
			}
		}
	}
	if len(names) == 0 || more == 0 || len(names)+more != 60 {
		t.Fatalf("named %d and %d more, want the first ones and the rest counted, 60 in all:\n%s", len(names), more, plainView(m))
	}
	if names[0] != "hanzo-testnet/svc-00" || slices.Contains(names, "hanzo-testnet/frozen") {
		t.Errorf("the list does not start with the first allowed row, or names a refused one: %v", names)
	}
}

// A failure stops new starts; production needs "restart N apps" typed.
func TestSetRestartStopsAtAFailure(t *testing.T) {
	r := &setRestarter{fail: "svc-02"}
	m := setModel(t, r, 6)
	m.opts.SetRestartLimit = 1
	keyDrive(m, "*", "R") // svc-00 … svc-05, and frozen (refused)
	typeText(m, "6")
	keyDrive(m, "enter")
	d := dialog.Find[*dialog.SetRestart](m.dialogs)
	if d == nil || d.Phase() != dialog.SetDone {
		t.Fatalf("the set did not finish:\n%s", plainView(m))
	}
	if strings.Join(r.started, ",") != "svc-00,svc-01,svc-02" {
		t.Errorf("started %v; want svc-00..svc-02 and nothing after the failure", r.started)
	}
	if v := plainView(m); !strings.Contains(v, "2 restarted, 1 failed, 3 not started") || !strings.Contains(v, "patch refused") {
		t.Errorf("summary:\n%s", v)
	}
}

// Any production row in the set: the confirmation is "restart N apps".
func TestSetRestartProductionNeedsTheWords(t *testing.T) {
	r := &setRestarter{}
	m := setModel(t, r, 2, app{ns: "hanzo", name: "iam", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	keyDrive(m, "*", "R")
	typeText(m, "3")
	keyDrive(m, "enter")
	if len(r.started) != 0 || !strings.Contains(plainView(m), `type exactly "restart 3 apps"`) {
		t.Fatalf("production must need the words:\n%s", plainView(m))
	}
	keyDrive(m, "backspace")
	typeText(m, "restart 3 apps")
	keyDrive(m, "enter")
	if len(r.started) != 3 {
		t.Fatalf("started %v after the words", r.started)
	}
}

// One app is "1 app" in the plan and the words production needs (the set
// also holds a paused app, refused).
func TestSetRestartOfOneAppSaysApp(t *testing.T) {
	r := &setRestarter{}
	m := setModel(t, r, 0, app{ns: "hanzo", name: "iam", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	keyDrive(m, "*", "R")
	v := plainView(m)
	for _, want := range []string{"Restart 2 marked apps?", "Rolling restart of 1 app as", "type restart 1 app:"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in:\n%s", want, v)
		}
	}
	typeText(m, "restart 1 app")
	keyDrive(m, "enter")
	if len(r.started) != 1 {
		t.Fatalf("started %v after the words", r.started)
	}
}

// Names longer than the dialog (an App's name may have 253 characters) are
// cut to fit with the count of the rest: the box keeps its right edge on an
// 80-column terminal instead of running off the screen.
func TestSetRestartLongNamesFitTheBox(t *testing.T) {
	long := func(p string) model.AppView {
		return app{ns: "hanzo-testnet", name: p + strings.Repeat("x", 120), declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build()
	}
	m := setModel(t, &setRestarter{}, 0, long("a-"), long("b-"))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	keyDrive(m, "*", "R")
	named := 0
	for _, l := range strings.Split(plainView(m), "\n") {
		inner, inBox := strings.CutPrefix(strings.TrimLeft(l, " ›"), "│") // the box, not the header
		if !inBox {
			continue
		}
		if strings.Contains(inner, "hanzo-testnet/a-x") || strings.Contains(inner, "hanzo-testnet/b-x") {
			named++
		}
		if !strings.HasSuffix(strings.TrimRight(inner, " "), "│") {
			t.Errorf("a dialog line runs off the 80 columns: %q\n%s", l, plainView(m))
		}
	}
	if named != 2 {
		t.Errorf("named %d of the 2 long apps:\n%s", named, plainView(m))
	}
}
