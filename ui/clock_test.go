package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

// ticksOf runs cmd (batches included) and returns its clock ticks, waiting
// up to wait for commands that sleep (a tick is a timer).
func ticksOf(cmd tea.Cmd, wait time.Duration) []clockTickMsg {
	return msgsWithin[clockTickMsg](cmd, wait)
}

// An unresponsive cluster's "(40s)" counts on while nothing else happens:
// a tick redraws the header when the text would change, not a frozen 40s.
func TestClockKeepsUnresponsiveSinceTrue(t *testing.T) {
	now := t0
	m, src := newTestModel(t, nil, nil, Options{Now: func() time.Time { return now }}, 160, 20)
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnUnresponsive, Since: t0.Add(-40 * time.Second)}})
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if v := plainView(m); !strings.Contains(v, "unresponsive since 13:59:20 (40s)") {
		t.Fatalf("header:\n%s", v)
	}
	ticks := ticksOf(cmd, 1500*time.Millisecond)
	if len(ticks) != 1 {
		t.Fatalf("want one clock tick armed for the counter, got %d", len(ticks))
	}
	now = t0.Add(5 * time.Second) // nothing else arrived meanwhile
	m.Update(ticks[0])
	if v := plainView(m); !strings.Contains(v, "unresponsive since 13:59:20 (45s)") {
		t.Fatalf("after the tick the counter should read 45s:\n%s", v)
	}
}

// The token's time left follows the clock too, a minute at a time.
func TestClockKeepsTokenTimeLeftTrue(t *testing.T) {
	now := t0
	id := orgAdmin() // expires at t0+42m
	m, _ := newTestModel(t, nil, id, Options{Now: func() time.Time { return now }}, 160, 20)
	if v := plainView(m); !strings.Contains(v, "42m left") {
		t.Fatalf("header:\n%s", v)
	}
	if !m.clock.at.Equal(t0.Add(time.Minute + clockSlack)) {
		t.Fatalf("tick armed for %v, want the next whole minute left (%v)", m.clock.at, t0.Add(time.Minute+clockSlack))
	}
	now = t0.Add(61 * time.Second)
	m.Update(clockTickMsg{gen: m.clock.gen})
	if v := plainView(m); !strings.Contains(v, "40m left") {
		t.Fatalf("after the tick the header should say 40m left:\n%s", v)
	}
	if !m.clock.at.Equal(now.Add(59*time.Second + clockSlack)) {
		t.Fatalf("next tick at %v, want %v", m.clock.at, now.Add(59*time.Second+clockSlack))
	}
}

// A board that shows no relative time arms no tick: idle stays idle.
func TestClockIdleBoardArmsNoTick(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 20)
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if !m.clock.at.IsZero() {
		t.Fatalf("a live board without a login armed a tick for %v", m.clock.at)
	}
	if ticks := ticksOf(cmd, 200*time.Millisecond); len(ticks) != 0 {
		t.Fatalf("ticks: %v", ticks)
	}
}

func TestUntilChange(t *testing.T) {
	for _, c := range []struct {
		d       time.Duration
		growing bool
		want    time.Duration
	}{
		{40 * time.Second, true, time.Second},
		{40*time.Second + 300*time.Millisecond, true, 700 * time.Millisecond},
		{42 * time.Minute, false, time.Minute},
		{42*time.Minute + 5*time.Second, false, 5 * time.Second},
		{12 * time.Minute, true, time.Minute},
		{9 * time.Hour, true, time.Hour},
	} {
		if got := untilChange(c.d, c.growing); got != c.want {
			t.Errorf("untilChange(%v, %v) = %v, want %v", c.d, c.growing, got, c.want)
		}
	}
}
