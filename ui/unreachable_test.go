package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

// TestUnreachableClusterSaysItRetries: a cluster whose setup is retried
// reads as retrying, with the attempt, the countdown to the next and the
// last error, in the header and the status line; an empty table says the
// cluster is unreachable, not "no apps yet". The countdown moves with the
// clock.
func TestUnreachableClusterSaysItRetries(t *testing.T) {
	now := t0
	src := newStoreSource()
	m := newModel(context.Background(), fleetOf(src, nil), nil, Options{Now: func() time.Time { return now }})
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 12})
	why := `discover hanzo.ai/v1: Get "https://127.0.0.1:1/apis/hanzo.ai/v1": dial tcp 127.0.0.1:1: connect: connection refused`
	src.SetClusters([]model.ClusterState{{Name: "closed", Phase: model.ConnFailed, Since: now, Reason: why,
		Attempt: 3, RetryAt: now.Add(4 * time.Second), Unreachable: true}})
	m.Update(snapshotMsg{src.Snapshot()})
	frame := plainView(m)
	lines := strings.Split(frame, "\n")
	want := "closed unreachable — retrying (attempt 3, next in 4s): discover hanzo.ai/v1"
	if !strings.Contains(lines[0], want) {
		t.Errorf("header lacks %q:\n%s", want, frame)
	}
	if strings.Contains(frame, "failed") || strings.Contains(frame, "no apps yet") {
		t.Errorf("the frame reads as final:\n%s", frame)
	}
	if !slices.ContainsFunc(lines[1:], func(l string) bool { return strings.Contains(l, "closed is unreachable") }) {
		t.Errorf("the table does not say the cluster is unreachable:\n%s", frame)
	}
	if !slices.ContainsFunc(lines[1:], func(l string) bool { return strings.Contains(l, "▲ closed unreachable — retrying (attempt 3") }) {
		t.Errorf("no status line says it retries:\n%s", frame)
	}
	if d := m.clockNext(now); d <= 0 || d > time.Second {
		t.Errorf("the countdown arms no tick within a second (%v)", d)
	}
	now = now.Add(3 * time.Second)
	m.Update(clockTickMsg{gen: m.clock.gen})
	if frame := plainView(m); !strings.Contains(frame, "next in 1s") {
		t.Errorf("3s later the countdown does not read 1s:\n%s", frame)
	}
}
