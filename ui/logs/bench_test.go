package logs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// BenchmarkLogViewBatch is one batch of 100 lines from a fast pod reaching
// a full view (5,000 lines kept, following, a search highlighted): the
// lines sanitised into the ring, then the view laid out and drawn.
func BenchmarkLogViewBatch(b *testing.B) {
	pods := []model.LogPod{{Name: "web-1", Containers: []string{"web"}, AppContainer: "web", Ready: true}}
	l := View{keys: keymap.New(), key: model.Key{Namespace: "hanzo", Name: "web"}, pod: "web-1", container: "web",
		follow: true, tail: true, streaming: true, ring: logbuf.NewRing(DefaultLines), pods: pods}
	l.search.pattern = "error"
	st := styles.New(true, false)
	batch := make([]string, 100)
	for i := range batch {
		batch[i] = fmt.Sprintf("2026-12-01T08:00:00Z INFO  GET /v1/items/%d 200 12ms user=alice trace=%08x error=none", i, i*7919)
	}
	for range DefaultLines / len(batch) {
		l, _, _ = l.Update(BatchMsg{seq: l.seq, batch: logbuf.Batch{Lines: batch}})
	}
	var sb strings.Builder
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l, _, _ = l.Update(BatchMsg{seq: l.seq, batch: logbuf.Batch{Lines: batch}})
		l.Layout(&st, 158, 50)
		sb.Reset()
		l.Render(&sb, &st, 160, "", true)
	}
	if l.ring.Len() != DefaultLines {
		b.Fatalf("ring holds %d", l.ring.Len())
	}
}
