package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// rollingRestarter accepts every restart and keeps its rollout going until
// the run's context ends.
type rollingRestarter struct {
	noFleet // reads nothing
	mu      sync.Mutex
	started []string
}

func (r *rollingRestarter) CheckRestart(context.Context, model.Key) model.Decision {
	return model.Decision{Allowed: true}
}

func (r *rollingRestarter) RestartWith(_ context.Context, k model.Key, _ restart.Request) (restart.Result, error) {
	r.mu.Lock()
	r.started = append(r.started, k.Name)
	r.mu.Unlock()
	return restart.Result{}, nil
}

func (r *rollingRestarter) WaitRollout(ctx context.Context, _ model.Key, progress func(model.WorkloadView)) error {
	progress(model.WorkloadView{Rollout: model.RolloutProgressing, Desired: 2, Updated: 1})
	<-ctx.Done()
	return ctx.Err()
}

func (r *rollingRestarter) startedNames() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := slices.Clone(r.started)
	slices.Sort(names) // the two slots start in either order
	return strings.Join(names, ",")
}

// Quitting while a set restart runs: q quits, nothing new starts, and the
// report names what was restarted, still rolling and never started.
func TestSetRestartQuitMidwayReports(t *testing.T) {
	r := &rollingRestarter{}
	m := setModel(t, r, 5) // svc-00 … svc-04, and frozen (paused: refused)
	m.opts.SetRestartLimit = 2
	keyDrive(m, "*", "R")
	typeText(m, "5")
	keyDrive(m, "enter") // returns once the two rollouts block
	if m.QuitReport() == "" || r.startedNames() != "svc-00,svc-01" {
		t.Fatalf("want two rollouts under way before quitting; started %q:\n%s", r.startedNames(), plainView(m))
	}
	if v := plainView(m); !strings.Contains(v, "q quit: nothing new starts") {
		t.Errorf("the running dialog does not say how to quit:\n%s", v)
	}
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q during a set restart did nothing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q during a set restart did not quit")
	}
	report := m.QuitReport()
	time.Sleep(50 * time.Millisecond) // the run sees the cancelled context
	if got := r.startedNames(); got != "svc-00,svc-01" {
		t.Errorf("after quitting, restarts started: %s", got)
	}
	for _, want := range []string{
		"quit during a set restart of 5 apps: nothing new was started.",
		"still rolling (restart sent; rollout not followed to its end) (2):\n    prod/hanzo-testnet/svc-00\n    prod/hanzo-testnet/svc-01\n",
		"never started (3):\n    prod/hanzo-testnet/svc-02\n    prod/hanzo-testnet/svc-03\n    prod/hanzo-testnet/svc-04\n",
		"refused before confirming (1): not sent",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "  restarted (") {
		t.Errorf("nothing finished, yet the report says restarted:\n%s", report)
	}
}

// A set that finished leaves nothing to report at exit: the summary was on screen.
func TestSetRestartQuitAfterDoneNoReport(t *testing.T) {
	m := setModel(t, &setRestarter{}, 2)
	keyDrive(m, "*", "R")
	typeText(m, "2")
	keyDrive(m, "enter")
	if got := m.QuitReport(); got != "" {
		t.Errorf("finished set still reported at exit:\n%s", got)
	}
}
