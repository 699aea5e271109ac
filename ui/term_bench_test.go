package ui

import (
	"fmt"
	"testing"

	"github.com/hanzoai/driftboard/ui/terminal"
	"github.com/hanzoai/driftboard/ui/terminal/termtest"
)

// churnFrames is n frames of a name-sorted 200×50 board of 10,000 rows,
// each with one shown row changed (its declared tag), as a churn draws them.
func churnFrames(b *testing.B, n int) []string {
	src, rows, m := nameSortedBoardSized(b, 10_000, 200, 50)
	frames := make([]string, 0, n)
	for i := range n {
		r := rows[i%40] // svc-00000… are on screen
		r.DeclaredTag = fmt.Sprintf("v9.%d.0", i)
		src.upsert(r)
		m.Update(snapshotMsg{src.Snapshot()})
		frames = append(frames, m.View().Content)
	}
	return frames
}

// BenchmarkTerminalFrame is what bubbletea's renderer costs per churn frame
// of the real board (200×50, one shown row changed): ultraviolet parses the
// whole frame into cells and diffs it against the screen. bytes/frame is
// what it writes to the terminal.
func BenchmarkTerminalFrame(b *testing.B) {
	frames := churnFrames(b, 256)
	ts := termtest.NewRenderer(200, 50)
	ts.Frame(frames[len(frames)-1])
	written := 0
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		ts.Frame(frames[i%len(frames)])
		written += ts.Written
		i++
	}
	cpu.report()
	b.ReportMetric(float64(written)/float64(b.N), "bytes/frame")
	b.ReportMetric(float64(len(frames[0])), "content-bytes")
}

// BenchmarkChurnFrameTerminal is a whole churn frame on the real board: one
// shown row changes, the snapshot is applied, the view drawn and rendered to
// the terminal as bubbletea does.
func BenchmarkChurnFrameTerminal(b *testing.B) {
	src, rows, m := nameSortedBoardSized(b, 10_000, 200, 50)
	ts := termtest.NewRenderer(200, 50)
	ts.Frame(m.View().Content)
	b.ReportAllocs()
	cpu := startCPU(b)
	i := 0
	for b.Loop() {
		r := rows[i%40]
		r.DeclaredTag = fmt.Sprintf("v9.%d.0", i)
		i++
		src.upsert(r)
		m.Update(snapshotMsg{src.Snapshot()})
		ts.Frame(m.View().Content)
	}
	cpu.report()
}

// BenchmarkTidyFrame is terminal.Tidy's own cost on a 200×50 board frame.
func BenchmarkTidyFrame(b *testing.B) {
	_, _, m := nameSortedBoardSized(b, 10_000, 200, 50)
	raw := m.guard(m.render())
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		_ = terminal.Tidy(raw)
	}
}
