package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// k9sEnv names the k9s binary for BenchmarkPeer (make bench-peer K9S=…).
const k9sEnv = "DRIFTBOARD_BENCH_K9S"

// BenchmarkPeer runs k9s's Apps view (--readonly -A -c apps.hanzo.ai) and
// the board against the same seeded API server, one after the other, and
// prints the ratios. Not in CI: it needs a k9s binary
// (go install github.com/derailed/k9s@v0.50.16).
// Run: make bench-peer K9S=$(go env GOPATH)/bin/k9s
func BenchmarkPeer(b *testing.B) {
	k9s := os.Getenv(k9sEnv)
	if k9s == "" {
		b.Fatalf("%s is not set: make bench-peer K9S=/path/to/k9s (go install github.com/derailed/k9s@v0.50.16)", k9sEnv)
	}
	if _, err := os.Stat(k9s); err != nil {
		b.Fatalf("k9s binary: %v", err)
	}
	bin, err := buildBoard()
	if err != nil {
		b.Fatal(err)
	}
	f := startFleet(b, 1, envInt(boardNEnv, 10000))
	total := "[" + grouped(f.total()) + "]" // k9s's title: apps(all)[10,000]
	peer := tool{name: "k9s", bin: k9s, args: []string{"--kubeconfig", f.kubeconfig, "--readonly", "-A", "-c", "apps.hanzo.ai"},
		agent: "k9s", full: func(s string) bool { return strings.Contains(s, total) }}
	for b.Loop() {
		mine := boardResult{Clusters: 1, PerCluster: f.perCluster, Phase: phaseLength()}
		theirs := mine
		runTool(b, peer, f, &theirs)
		runTool(b, boardTool(bin, f), f, &mine)
		out := peerTable(theirs, mine)
		b.Log(out)
		fmt.Print(out)
	}
}

func peerTable(k9s, board boardResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nside by side (both ask for gzip), one API server, %d Apps + %d Deployments, %d×%d pty, phases %s\n",
		board.PerCluster, board.PerCluster, termCols, termRows, board.Phase)
	row := func(name, a, c, ratio string) { fmt.Fprintf(&b, "  %-40s %14s %14s %10s\n", name, a, c, ratio) }
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	ratio := func(ours, theirs float64) string {
		if theirs == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f×", ours/theirs)
	}
	row("measure", "k9s", "driftboard", "ratio")
	row("start → first rows", sec(k9s.FirstRows)+k9s.Start.Settle.mark(), sec(board.FirstRows)+board.Start.Settle.mark(),
		ratio(board.FirstRows.Seconds(), k9s.FirstRows.Seconds()))
	row("start → every App listed", sec(k9s.FullBoard)+k9s.Start.Settle.mark(), sec(board.FullBoard)+board.Start.Settle.mark(),
		ratio(board.FullBoard.Seconds(), k9s.FullBoard.Seconds()))
	row("RSS after sync / after churn (MiB)", fmt.Sprintf("%.0f / %.0f", k9s.RSSSynced, k9s.RSSChurn),
		fmt.Sprintf("%.0f / %.0f", board.RSSSynced, board.RSSChurn), ratio(board.RSSChurn, k9s.RSSChurn))
	row("idle CPU per minute", sec(k9s.IdleCPU), sec(board.IdleCPU), ratio(board.IdleCPU.Seconds(), k9s.IdleCPU.Seconds()))
	row("LISTs while idle", strconv.Itoa(k9s.IdleLists), strconv.Itoa(board.IdleLists), "")
	row(fmt.Sprintf("CPU per minute at %d patches/s", churnRate), sec(k9s.ChurnCPU), sec(board.ChurnCPU),
		ratio(board.ChurnCPU.Seconds(), k9s.ChurnCPU.Seconds()))
	row("patch → on screen p50 / p99", "n/a (no tag column)",
		fmt.Sprintf("%d / %d ms", board.P50.Milliseconds(), board.P99.Milliseconds()), "")
	fmt.Fprintf(&b, "  before k9s's start: %s\n  before driftboard's start: %s\n", k9s.Start.Settle, board.Start.Settle)
	return b.String()
}

// grouped writes n with thousands separators, as k9s's titles do.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestGroupedAsK9sTitles(t *testing.T) {
	for n, want := range map[int]string{7: "7", 999: "999", 1000: "1,000", 10000: "10,000", 250000: "250,000", 1234567: "1,234,567"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}
