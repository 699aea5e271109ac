package bench

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// boardResult is the whole program's figures at one size.
type boardResult struct {
	Clusters, PerCluster         int
	FirstRows, FullBoard         time.Duration
	SyncingShown                 string // the header while rows streamed in ("" if never seen)
	StartCPU                     time.Duration
	IdleCPU, ChurnCPU            time.Duration // per minute
	IdleLists, IdleWatches       int
	RSSSynced, RSSChurn          float64
	Patches, Measured, Lost      int
	P50, P99, Max                time.Duration // patch sent → the new tag on screen
	APIPeakBoard, APIPeakKubectl float64       // API server peak RSS (MiB), cluster 1
	OneClusterFull               time.Duration // with several clusters: the board of cluster 1 alone
	OneClusterCPU                startCPU      // and the CPU its start used
	Start                        startCPU      // the CPU the start used beside the board's own
	GrownTo                      int           // one cluster grown to this many Apps afterwards (0: not)
	GrownFull                    time.Duration // its start → full board
	GrownStart                   startCPU      // and the CPU that start used
	Plain                        plainStart    // the start without gzip (--compression=off)
	Phase                        time.Duration
}

// boardTargets are the board's performance targets (docs/performance.md)
// for a fleet of a given size.
type boardTargets struct {
	full time.Duration
	rss  float64
}

func targetsFor(r boardResult) boardTargets {
	if r.Clusters*r.PerCluster >= 50000 {
		return boardTargets{full: 10 * time.Second, rss: 400}
	}
	return boardTargets{full: 2 * time.Second, rss: 120}
}

func (r boardResult) table() string {
	var b strings.Builder
	t := targetsFor(r)
	ms := func(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	fmt.Fprintf(&b, "\nthe board binary in a %d×%d pty: %d cluster(s) × (%d Apps + %d Deployments); idle and churn phases %s each\n",
		termCols, termRows, r.Clusters, r.PerCluster, r.PerCluster, r.Phase)
	row := func(name, ours, target string) { fmt.Fprintf(&b, "  %-46s %22s   %s\n", name, ours, target) }
	row("measure", "board", "target")
	row("start → first rows on screen", sec(r.FirstRows)+r.Start.Settle.mark(), "≤ 1.00 s")
	row("  the header's last progress while syncing", orNone(r.SyncingShown), "syncing n/N")
	row("start → full board on screen", sec(r.FullBoard)+r.Start.Settle.mark(), "≤ "+sec(t.full))
	if r.OneClusterFull > 0 {
		row("  one cluster alone → full board", sec(r.OneClusterFull)+r.OneClusterCPU.Settle.mark(),
			fmt.Sprintf("ratio %.2f×%s (target ≤ 1.3×)", r.FullBoard.Seconds()/r.OneClusterFull.Seconds(),
				eitherMark(r.Start.Settle, r.OneClusterCPU.Settle)))
	}
	row("CPU used to get there", sec(r.StartCPU), "")
	row("  where the start's CPU went", r.Start.String(), "")
	if r.Plain.Full > 0 {
		row("  without gzip (--compression=off): full board", sec(r.Plain.Full)+r.Plain.CPU.Settle.mark(), "")
		row("  … where that start's CPU went", r.Plain.CPU.String(), "")
	}
	if r.OneClusterFull > 0 {
		row("  … with one cluster alone", r.OneClusterCPU.String(), "")
	}
	if r.GrownTo > 0 {
		row(fmt.Sprintf("  grown to %d: start → full board (CPU)", r.GrownTo),
			fmt.Sprintf("%s (%s)%s", sec(r.GrownFull), sec(r.GrownStart.Board), r.GrownStart.Settle.mark()),
			fmt.Sprintf("%.2f× the time at %d%s (target ≤ %.1f×)", r.GrownFull.Seconds()/r.FullBoard.Seconds(),
				r.Clusters*r.PerCluster, eitherMark(r.Start.Settle, r.GrownStart.Settle),
				1.03*float64(r.GrownTo)/float64(r.Clusters*r.PerCluster)))
		row("  … where that start's CPU went", r.GrownStart.String(), "")
		row("  … its CPU against the start's: board / API servers", fmt.Sprintf("%.2f× / %.2f×%s",
			r.GrownStart.Board.Seconds()/r.Start.Board.Seconds(), r.GrownStart.APIServers.Seconds()/r.Start.APIServers.Seconds(),
			eitherMark(r.Start.Settle, r.GrownStart.Settle)),
			fmt.Sprintf("%.2f× is linear", float64(r.GrownTo)/float64(r.Clusters*r.PerCluster)))
	}
	row("RSS after sync", fmt.Sprintf("%.0f MiB", r.RSSSynced), "")
	row(fmt.Sprintf("idle CPU per minute (from %s after the full board)", settleAfterSync), sec(r.IdleCPU), "≤ 0.10 s")
	row("LIST / WATCH requests while idle", fmt.Sprintf("%d / %d", r.IdleLists, r.IdleWatches), "0 LISTs")
	row(fmt.Sprintf("CPU per minute at %d App patches/s", churnRate), sec(r.ChurnCPU), "≤ 1.00 s")
	row("RSS after the churn", fmt.Sprintf("%.0f MiB", r.RSSChurn), fmt.Sprintf("≤ %.0f MiB", t.rss))
	row("patch → row on screen p50 / p99 (max)", fmt.Sprintf("%s / %s (%s)", ms(r.P50), ms(r.P99), ms(r.Max)), "p99 ≤ 100 ms")
	row("  patches sent / measured on screen / lost", fmt.Sprintf("%d / %d / %d", r.Patches, r.Measured, r.Lost), "0 lost")
	row("API server peak RSS: board start / kubectl", fmt.Sprintf("%.0f / %.0f MiB", r.APIPeakBoard, r.APIPeakKubectl),
		"board ≤ kubectl get apps -A -o json")
	return b.String()
}

// eitherMark is the mark of a ratio of two starts' figures: it is as
// unsettled as either start.
func eitherMark(a, b settled) string {
	if m := a.mark(); m != "" {
		return m
	}
	return b.mark()
}

func orNone(s string) string {
	if s == "" {
		return "(not seen)"
	}
	return s
}

func reportBoard(b *testing.B, r boardResult) {
	b.ReportMetric(r.FirstRows.Seconds(), "s-first-rows")
	b.ReportMetric(r.FullBoard.Seconds(), "s-full-board")
	b.ReportMetric(r.IdleCPU.Seconds(), "s-idle-cpu/min")
	b.ReportMetric(float64(r.IdleLists), "idle-LISTs")
	b.ReportMetric(r.ChurnCPU.Seconds(), "s-churn-cpu/min")
	b.ReportMetric(r.RSSChurn, "MiB-RSS-churn")
	b.ReportMetric(float64(r.P99.Milliseconds()), "ms-p99")
}

var (
	boardResultsMu sync.Mutex
	boardResults   []boardResult
)

func recordBoard(r boardResult) {
	boardResultsMu.Lock()
	defer boardResultsMu.Unlock()
	boardResults = append(boardResults, r)
}

func printBoardSummary() {
	boardResultsMu.Lock()
	defer boardResultsMu.Unlock()
	for _, r := range boardResults {
		fmt.Print(r.table())
	}
}
