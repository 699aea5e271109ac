package ui

import (
	"context"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// settlingSource is a Source whose clusters settle when settled is closed.
type settlingSource struct {
	*storeSource
	settled chan struct{}
}

func (s settlingSource) Settled() <-chan struct{} { return s.settled }

// TestSnapshotPaceWhileSyncing: while a cluster's first lists stream and
// rows are shown, snapshots are taken syncingDelay apart; the first rows,
// and a synced fleet's changes, at the usual pace.
func TestSnapshotPaceWhileSyncing(t *testing.T) {
	m, src := newTestModel(t, &fakeRestarter{}, nil, Options{}, 160, 30)
	if d := m.snapDelay(); d != coalesceDelay {
		t.Errorf("synced fleet: snapshots %v apart, want %v", d, coalesceDelay)
	}
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnSyncing, Since: t0, Listed: 4, Expected: 10}})
	m.Update(snapshotMsg{src.Snapshot()})
	if d := m.snapDelay(); d != syncingDelay {
		t.Errorf("syncing with rows shown: snapshots %v apart, want %v", d, syncingDelay)
	}

	empty := newStoreSource()
	empty.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnSyncing, Since: t0}})
	m2 := newModel(context.Background(), fleetOf(empty, &fakeRestarter{}), nil, Options{Now: fixedNow})
	t.Cleanup(m2.cancel)
	m2.Update(snapshotMsg{empty.Snapshot()})
	if d := m2.snapDelay(); d != coalesceDelay {
		t.Errorf("syncing, no row yet: snapshots %v apart, want %v (the first rows at once)", d, coalesceDelay)
	}
}

// TestSyncingPaceEndsWhenSettled: the wait at the syncing pace ends as soon
// as the source's clusters settle (the full board is not held back), and
// lasts its whole delay otherwise.
func TestSyncingPaceEndsWhenSettled(t *testing.T) {
	ctx := context.Background()
	src := settlingSource{newStoreSource(), make(chan struct{})}
	src.upsert(fleet()...)
	start := time.Now()
	time.AfterFunc(50*time.Millisecond, func() { close(src.settled) })
	if _, ok := waitForChange(ctx, src, start, 20*time.Second)().(snapshotMsg); !ok {
		t.Fatal("no snapshot")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("settled after 50 ms, snapshot taken after %v", took)
	}

	src = settlingSource{newStoreSource(), make(chan struct{})}
	src.upsert(fleet()...)
	start = time.Now()
	if _, ok := waitForChange(ctx, src, start, 300*time.Millisecond)().(snapshotMsg); !ok {
		t.Fatal("no snapshot")
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("not settled: snapshot taken after %v, want at least 300ms", took)
	}
}
