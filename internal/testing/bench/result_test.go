package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// result is one size's figures.
type result struct {
	N                          int
	SpecBytes                  int
	KubectlApps, KubectlDeploy time.Duration
	RawList                    time.Duration // client-go LIST of both kinds, no printing
	ToBoard, ChildToBoard      time.Duration
	SyncCPU                    time.Duration
	RSS, Peak, Heap            float64
	Phase                      time.Duration
	IdleCPU, ChurnCPU          time.Duration // per minute
	IdleAPIServerCPU           time.Duration // per minute
	IdleLists, IdleWatches     int
	StartLists                 int
	Patches, Lost              int
	P50, P99, Max              time.Duration // patch sent → row in a snapshot
	AckP50, AckP99             time.Duration // patch acknowledged → row in a snapshot
}

func (r result) floor() time.Duration { return r.KubectlApps + r.KubectlDeploy }

func (r result) table() string {
	var b strings.Builder
	ms := func(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	fmt.Fprintf(&b, "\nN = %d Apps (spec %d B JSON) + %d Deployments, 50 namespaces; idle and churn phases %s each\n",
		r.N, r.SpecBytes, r.N, r.Phase)
	fmt.Fprintf(&b, "  %-44s %20s   %s\n", "measure", "board", "floor / target")
	row := func(name, ours, ref string) { fmt.Fprintf(&b, "  %-44s %20s   %s\n", name, ours, ref) }
	row("kubectl get apps.hanzo.ai -A -o json", "", sec(r.KubectlApps))
	row("kubectl get deployments -A -o json", "", sec(r.KubectlDeploy))
	row("client-go LIST of both kinds, no printing", "", sec(r.RawList))
	row("process start → full board (both kinds)", sec(r.ToBoard),
		fmt.Sprintf("floor %s (apps+deployments), ratio %.2f× (target ≤ 1.5×)", sec(r.floor()), r.ToBoard.Seconds()/r.floor().Seconds()))
	row("  of which Connect → full snapshot", sec(r.ChildToBoard), fmt.Sprintf("ratio to the client-go LIST %.2f×", r.ToBoard.Seconds()/r.RawList.Seconds()))
	row("CPU used to get there", sec(r.SyncCPU), "")
	row("LIST requests to get there", strconv.Itoa(r.StartLists), "")
	row("RSS after sync (peak)", fmt.Sprintf("%.0f (%.0f) MiB", r.RSS, r.Peak), "target ≤ 150 MiB")
	row("Go heap in use after sync", fmt.Sprintf("%.0f MiB", r.Heap), "")
	row("idle CPU per minute", sec(r.IdleCPU), "target ≤ 0.2 s")
	row("LIST / WATCH requests while idle", fmt.Sprintf("%d / %d", r.IdleLists, r.IdleWatches), "target 0 LISTs")
	row("API server CPU per idle minute", sec(r.IdleAPIServerCPU), "(whole server, not only ours)")
	row(fmt.Sprintf("churn CPU per minute (%d patches/s)", churnRate), sec(r.ChurnCPU), "")
	row("change → row p50 / p99 (max)", fmt.Sprintf("%s / %s (%s)", ms(r.P50), ms(r.P99), ms(r.Max)), "target p99 ≤ 250 ms; from patch sent")
	row("  from patch acknowledged p50 / p99", fmt.Sprintf("%s / %s", ms(r.AckP50), ms(r.AckP99)), "")
	row("patches sent / never shown", fmt.Sprintf("%d / %d", r.Patches, r.Lost), "")
	return b.String()
}

func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func reportMetrics(b *testing.B, r result) {
	b.ReportMetric(r.ToBoard.Seconds(), "s-to-board")
	b.ReportMetric(r.floor().Seconds(), "s-kubectl-floor")
	b.ReportMetric(r.RawList.Seconds(), "s-list-floor")
	b.ReportMetric(r.ToBoard.Seconds()/r.floor().Seconds(), "x-floor")
	b.ReportMetric(r.RSS, "MiB-RSS")
	b.ReportMetric(r.Heap, "MiB-heap")
	b.ReportMetric(r.IdleCPU.Seconds(), "s-idle-cpu/min")
	b.ReportMetric(float64(r.IdleLists), "idle-LISTs")
	b.ReportMetric(r.ChurnCPU.Seconds(), "s-churn-cpu/min")
	b.ReportMetric(float64(r.P50.Milliseconds()), "ms-p50")
	b.ReportMetric(float64(r.P99.Milliseconds()), "ms-p99")
	b.ReportMetric(float64(r.Lost), "lost")
}
