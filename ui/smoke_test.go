package ui_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/hanzoai/driftboard/internal/cli"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/ui"
)

// demoIdentity adapts the demo's identity to the board.
type demoIdentity struct{ d *demo.Demo }

func (i demoIdentity) Current() ui.IdentityState {
	return ui.IdentityState{Principal: i.d.Principal(), Expiry: i.d.Expiry(), Source: i.d.Source()}
}

func (i demoIdentity) Login(context.Context, func(ui.LoginPrompt)) error {
	i.d.SwitchIdentity()
	return nil
}

// probe wraps the board unchanged and publishes the text of its latest frame,
// so the test can wait on what the user would read (the raw terminal stream
// only carries the cells that changed).
type probe struct {
	inner   tea.Model
	mu      sync.Mutex
	frame   string
	history []string // every distinct frame, to check transient states
}

func (p *probe) Init() tea.Cmd { return p.inner.Init() }

func (p *probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	p.inner, cmd = p.inner.Update(msg)
	text := ansi.Strip(p.inner.View().Content)
	p.mu.Lock()
	if text != p.frame {
		p.history = append(p.history, text)
	}
	p.frame = text
	p.mu.Unlock()
	return p, cmd
}

func (p *probe) View() tea.View { return p.inner.View() }

func (p *probe) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frame
}

func (p *probe) waitFor(t *testing.T, what string, timeout time.Duration, ok func(frame string) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if ok(p.text()) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out after %v waiting for %s; last frame:\n%s", timeout, what, p.text())
}

// saw reports whether any frame so far had a line containing all of subs.
func (p *probe) saw(subs ...string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.history {
		for _, line := range strings.Split(f, "\n") {
			all := true
			for _, s := range subs {
				all = all && strings.Contains(line, s)
			}
			if all {
				return true
			}
		}
	}
	return false
}

func has(subs ...string) func(string) bool {
	return func(frame string) bool {
		frame = strings.NewReplacer("│", " ", "┌", " ", "┐", " ", "└", " ", "┘", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ").Replace(frame)
		flat := strings.Join(strings.Fields(frame), " ")
		for _, s := range subs {
			if !strings.Contains(flat, s) {
				return false
			}
		}
		return true
	}
}

// TestDemoSmoke runs the whole program on the demo fleet: it waits for both
// clusters to go live, filters to one app, opens and confirms a restart and
// sees the rollout complete.
func TestDemoSmoke(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Seed: 7, Speed: 30})
	if err != nil {
		t.Fatalf("demo.Start: %v", err)
	}
	defer d.Stop()

	dark := true
	b := cli.NewBoard(d.Fleet(), config.Effective{}) // as `driftboard demo` assembles it
	b.Options.DarkBackground = &dark
	p := &probe{inner: ui.New(b.Fleet, demoIdentity{d}, b.Options)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(140, 40))

	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(ansi.Strip(string(b)), "driftboard") },
		teatest.WithDuration(30*time.Second))
	p.waitFor(t, "both clusters live", 60*time.Second, has("demo live", "demo-eu live", "ops@hanzo.ai"))

	tm.Type("/faucet env:test")
	p.waitFor(t, "the filter to apply", 10*time.Second, has("1/", "shown", "faucet"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	p.waitFor(t, "the query line to close", 10*time.Second, has("filter: /faucet env:test"))

	tm.Type("r")
	p.waitFor(t, "the confirm dialog", 20*time.Second,
		has("Rolling restart of Deployment hanzo-testnet/faucet in cluster demo (env test) as oidc:ops@hanzo.ai (ops@hanzo.ai)", "[y/N]"))
	tm.Type("y")
	p.waitFor(t, "the rollout to complete", 90*time.Second, has("restart of hanzo-testnet/faucet complete"))
	if !p.saw("faucet", "↻") {
		t.Error("the faucet row never showed its rollout in progress (↻)")
	}
	if !strings.Contains(p.text(), "2/2 ready") {
		t.Errorf("completion does not say how many are ready:\n%s", p.text())
	}

	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
