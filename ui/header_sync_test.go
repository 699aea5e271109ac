package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// TestHeaderSaysSyncingProgress: while a cluster's first lists stream in,
// the header says how many Apps arrived, and of how many when known; the
// rows already synced elsewhere are on the board meanwhile.
func TestHeaderSaysSyncingProgress(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 20)
	src.upsert(app{cluster: "eu", ns: "hanzo", name: "iam", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0"}.build())
	src.SetClusters([]model.ClusterState{
		{Name: "eu", Phase: model.ConnLive},
		{Name: "us", Phase: model.ConnSyncing, Listed: 4200, Expected: 10000},
		{Name: "ap", Phase: model.ConnSyncing, Listed: 500},
		{Name: "sa", Phase: model.ConnSyncing},
	})
	m.Update(snapshotMsg{src.Snapshot()})
	frame := plainView(m)
	for _, want := range []string{"us syncing 4200/10000", "ap syncing 500", "sa syncing", "iam"} {
		if !strings.Contains(frame, want) {
			t.Errorf("frame lacks %q:\n%s", want, frame)
		}
	}
}

// TestHeaderSaysWhySyncIsRetried: while a call of a cluster's first sync
// fails and is retried, the header says so with the last error (sanitised)
// and a total not known is "?", not a bare count that reads as progress;
// the status line gives the reason in full.
func TestHeaderSaysWhySyncIsRetried(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 200, 20)
	why := "replicasets in hanzo: etcdserver: leader changed\x1b[2J"
	src.SetClusters([]model.ClusterState{{Name: "us", Phase: model.ConnSyncing, Reason: why}})
	m.Update(snapshotMsg{src.Snapshot()})
	frame := plainView(m)
	lines := strings.Split(frame, "\n")
	want := "us syncing 0/? — retrying replicasets in hanzo: etcdserver: leader changed"
	if !strings.Contains(lines[0], want) {
		t.Errorf("header lacks %q:\n%s", want, frame)
	}
	if !slices.ContainsFunc(lines[1:], func(l string) bool { return strings.Contains(l, "▲ "+want) }) {
		t.Errorf("no status line says %q:\n%s", "▲ "+want, frame)
	}
	if strings.Contains(m.View().Content, "\x1b[2J") {
		t.Error("the server's words reached the terminal unsanitised")
	}

	src.SetClusters([]model.ClusterState{{Name: "us", Phase: model.ConnSyncing, Reason: why, Listed: 4200, Expected: 10000}})
	m.Update(snapshotMsg{src.Snapshot()})
	m.Update(headerDueMsg{at: time.Now().Add(headerDelay)}) // a count alone is drawn within headerDelay
	if frame := plainView(m); !strings.Contains(frame, "us syncing 4200/10000 — retrying replicasets") {
		t.Errorf("with a known total:\n%s", frame)
	}
}
