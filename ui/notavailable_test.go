package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/detail"
	"github.com/hanzoai/driftboard/ui/logs"
)

// A fleet whose source cannot read logs or Events says so with the reason
// in each view; nothing is discovered at run time and nothing is left
// blank. (allowed() reads nothing: every read answers
// not available.)
func TestNotAvailableIsShownWithWhy(t *testing.T) {
	const why = "not available from this source (the board has no fleet)"

	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 120, 60)
	src.upsert(floatingApp("", 2))
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "web")
	_, cmd := m.Update(keyMsg("l"))
	for _, msg := range msgsOf[logs.PodsMsg](cmd) {
		m.Update(msg)
	}
	if v := plainView(m); !strings.Contains(v, "logs: "+why) || strings.Contains(v, "could not read") {
		t.Errorf("logs:\n%s", v)
	}
	press(m, "q")
	_, cmd = m.Update(keyMsg("enter"))
	for _, msg := range msgsOf[detail.EventsStartedMsg](cmd) {
		m.Update(msg)
	}
	if v := plainView(m); !strings.Contains(v, "Events: "+why) || strings.Contains(v, "events: could not read") {
		t.Errorf("detail's Events:\n%s", v)
	}

	// A set restart whose rollouts cannot be followed: each slot ends with
	// its accepted patch, a restart, not a failure.
	s := setModel(t, cannotFollow{allowed()}, 2)
	keyDrive(s, "*", "R")
	typeText(s, "2")
	keyDrive(s, "enter")
	if v := plainView(s); !strings.Contains(v, "2 restarted, 0 failed") {
		t.Errorf("set restart without rollout follow:\n%s", v)
	}

	// A single restart likewise: accepted, and why its rollout is not followed.
	m1, _ := newTestModel(t, cannotFollow{allowed()}, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m1, "explorer")
	press(m1, "r", "y")
	if len(m1.inflight) != 0 || m1.status.bad || !strings.Contains(m1.status.text, "accepted; rollouts: not available from this source") {
		t.Errorf("single restart without rollout follow: inflight %d, status %+v", len(m1.inflight), m1.status)
	}
}

// cannotFollow restarts but cannot follow a rollout: not available.
type cannotFollow struct{ *fakeRestarter }

func (cannotFollow) WaitRollout(ctx context.Context, k model.Key, p func(model.WorkloadView)) error {
	return noFleet{}.WaitRollout(ctx, k, p)
}
