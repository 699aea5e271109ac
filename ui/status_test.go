package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

// A plain notice goes by itself after noticeLife, through the one clock
// tick armed for it; then no tick is armed (an idle board stays idle).
func TestStatusNoticeExpires(t *testing.T) {
	now := t0
	m, _ := newTestModel(t, nil, nil, Options{Now: func() time.Time { return now }}, 160, 20)
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "esc")
	if v := plainView(m); !strings.Contains(v, "filters cleared") {
		t.Fatalf("esc should say the filters were cleared:\n%s", v)
	}
	if want := t0.Add(noticeLife + clockSlack); !m.clock.at.Equal(want) {
		t.Fatalf("tick armed for %v, want %v (when the notice goes)", m.clock.at, want)
	}
	now = t0.Add(noticeLife - time.Second) // an early tick (another reason) keeps it
	m.Update(clockTickMsg{gen: m.clock.gen + 1})
	if v := plainView(m); !strings.Contains(v, "filters cleared") {
		t.Fatalf("the notice went before its time:\n%s", v)
	}
	now = t0.Add(noticeLife + clockSlack)
	m.Update(clockTickMsg{gen: m.clock.gen})
	if v := plainView(m); strings.Contains(v, "filters cleared") {
		t.Fatalf("the notice should be gone after %v:\n%s", noticeLife, v)
	}
	if !m.clock.at.IsZero() {
		t.Fatalf("nothing left to expire, yet a tick is armed for %v", m.clock.at)
	}
}

// A newer notice gets its own full time, counted from when it showed.
func TestStatusNewerNoticeCountsFromItself(t *testing.T) {
	now := t0
	m, _ := newTestModel(t, nil, nil, Options{Now: func() time.Time { return now }}, 160, 20)
	press(m, "/")
	typeText(m, "iam")
	press(m, "enter", "esc")
	now = t0.Add(3 * time.Second)
	press(m, "*") // marks every shown row: a notice of its own
	if v := plainView(m); !strings.Contains(v, "shown rows marked") {
		t.Fatalf("marking all should say so:\n%s", v)
	}
	now = t0.Add(noticeLife + clockSlack)
	m.Update(clockTickMsg{gen: m.clock.gen})
	if v := plainView(m); !strings.Contains(v, "shown rows marked") {
		t.Fatalf("the newer notice went with the older one's time:\n%s", v)
	}
	if want := t0.Add(3*time.Second + noticeLife + clockSlack); !m.clock.at.Equal(want) {
		t.Fatalf("tick armed for %v, want %v", m.clock.at, want)
	}
	now = m.clock.at
	m.Update(clockTickMsg{gen: m.clock.gen})
	if v := plainView(m); strings.Contains(v, "shown rows marked") {
		t.Fatalf("the newer notice should be gone:\n%s", v)
	}
}

// An error stays, with no tick armed for it, until esc dismisses it.
func TestStatusErrorStaysUntilDismissed(t *testing.T) {
	now := t0
	m, _ := newTestModel(t, nil, nil, Options{Now: func() time.Time { return now }, InitialQuery: "sev:purple"}, 160, 20)
	if v := plainView(m); !strings.Contains(v, "initial filter ignored") {
		t.Fatalf("the bad initial filter should be named:\n%s", v)
	}
	if !m.clock.at.IsZero() {
		t.Fatalf("an error that stays armed a tick for %v", m.clock.at)
	}
	now = t0.Add(10 * time.Minute)
	press(m, "j")
	if v := plainView(m); !strings.Contains(v, "initial filter ignored") {
		t.Fatalf("the error went by itself:\n%s", v)
	}
	press(m, "esc")
	if v := plainView(m); strings.Contains(v, "initial filter ignored") {
		t.Fatalf("esc should dismiss the error:\n%s", v)
	}
}

// quickMsgs runs cmd (batches flattened) and returns the messages of the
// commands that answer within 50 ms; timers (the clock's tick) are dropped.
func quickMsgs(cmd tea.Cmd) []tea.Msg { return msgsWithin[tea.Msg](cmd, 50*time.Millisecond) }

// A rollout's outcome that lands while the help or a filter being typed
// hides the status line waits there: its 5 s count from when it shows.
func TestStatusNoticeWaitsUntilShown(t *testing.T) {
	for _, c := range []struct{ name, open, close string }{
		{"help", "?", "?"},
		{"filter typed", "/", "esc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := t0
			m, src := newTestModel(t, allowed(), orgAdmin(), Options{Now: func() time.Time { return now }}, 120, 30)
			selectApp(t, m, "explorer")
			press(m, "r", "y")
			press(m, c.open)
			done := app{ns: "hanzo-testnet", name: "explorer", declared: "v0.9.0", running: "v0.9.0", latest: "v1.0.0",
				ready: 2, updated: 2, assets: 1, restartedAt: t0.Format(time.RFC3339), restartedBy: "alice", generation: 2, observedGen: 2}
			src.upsert(done.build())
			m.Update(snapshotMsg{src.Snapshot()})
			m.Update(followedMsg{key: model.Key{Cluster: "prod", Namespace: "hanzo-testnet", Name: "explorer"}}) // Follow: complete
			if !strings.Contains(m.status.text, "complete") {
				t.Fatalf("status %q, want the rollout complete", m.status.text)
			}
			now = t0.Add(time.Minute) // read on, the outcome behind
			m.Update(clockTickMsg{gen: m.clock.gen})
			press(m, c.close)
			if v := plainView(m); !strings.Contains(v, "restart of hanzo-testnet/explorer complete") {
				t.Fatalf("the outcome went while it could not be seen:\n%s", v)
			}
			now = now.Add(noticeLife + clockSlack)
			m.Update(clockTickMsg{gen: m.clock.gen})
			if v := plainView(m); strings.Contains(v, "complete") {
				t.Fatalf("once seen, the outcome should go after %v:\n%s", noticeLife, v)
			}
		})
	}
}
