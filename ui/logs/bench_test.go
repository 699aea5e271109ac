package ui

import (
	"fmt"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// BenchmarkLogViewBatch is one batch of 100 lines from a fast pod reaching
// a full view (5,000 lines kept, following, a search highlighted): the
// lines sanitised into the ring, then the frame laid out and drawn.
func BenchmarkLogViewBatch(b *testing.B) {
	src := &logSource{fakeRestarter: allowed(), pods: []model.LogPod{onePod("web-1")}}
	m, store := newTestModel(b, src, orgAdmin(), Options{}, 160, 50)
	store.upsert(floatingApp("", 2))
	m.Update(snapshotMsg{store.Snapshot()})
	m.screen = screenLogs
	m.logs = logView{key: model.Key{Namespace: "hanzo", Name: "web"}, pod: "web-1", container: "web", follow: true, tail: true,
		streaming: true, ring: model.NewLineRing(DefaultLogLines), pods: src.pods}
	m.logs.search.pattern = "error"
	batch := make([]string, 100)
	for i := range batch {
		batch[i] = fmt.Sprintf("2026-12-01T08:00:00Z INFO  GET /v1/items/%d 200 12ms user=alice trace=%08x error=none", i, i*7919)
	}
	for range DefaultLogLines / len(batch) {
		m.Update(logBatchMsg{seq: m.logs.seq, batch: model.LogBatch{Lines: batch}})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(logBatchMsg{seq: m.logs.seq, batch: model.LogBatch{Lines: batch}})
		_ = m.View()
	}
	if m.logs.ring.Len() != DefaultLogLines {
		b.Fatalf("ring holds %d", m.logs.ring.Len())
	}
}
