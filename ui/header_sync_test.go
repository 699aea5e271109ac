package ui

import (
	"strings"
	"testing"

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
