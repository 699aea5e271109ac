package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Knobs of the whole-program benchmark, from the environment:
//
//	DRIFTBOARD_BENCH_BOARD_N         Apps (and Deployments) per cluster (default 10000)
//	DRIFTBOARD_BENCH_BOARD_CLUSTERS  real API servers (default 1; 5 with N=5000 is the many-clusters case)
//	DRIFTBOARD_BENCH_SECONDS         length of the idle and of the churn phase (default 60)
//	DRIFTBOARD_BENCH_BOARD_GROW      one cluster only: then grow it to this many Apps and time
//	                                 the start again, for linearity (default 3 × N up to N = 10000;
//	                                 "off": none)
const (
	boardNEnv        = "DRIFTBOARD_BENCH_BOARD_N"
	boardClustersEnv = "DRIFTBOARD_BENCH_BOARD_CLUSTERS"
	boardGrowEnv     = "DRIFTBOARD_BENCH_BOARD_GROW"
	visibleApps      = 8 // the first names by name sort: on screen in every cluster up to 5
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// fleetEnv is the seeded clusters the programs run against.
type fleetEnv struct {
	clusters   []*testcluster.Cluster
	dyns       []dynamic.Interface
	kubeconfig string // every cluster, contexts c1…cN
	nss        []string
	perCluster int
}

func (f *fleetEnv) total() int { return f.perCluster * len(f.clusters) }

// startFleet starts k real API servers and seeds n Apps + Deployments in
// each, in parallel.
func startFleet(b *testing.B, k, n int) *fleetEnv {
	f := &fleetEnv{nss: benchNamespaces(), perCluster: n}
	for range k {
		f.clusters = append(f.clusters, testcluster.Start(b, testcluster.Options{Profiling: true}))
	}
	begin := time.Now()
	var wg sync.WaitGroup
	for _, c := range f.clusters {
		c.CreateNamespaces(f.nss...)
		wg.Go(func() { seedFleet(b, c, f.nss, n) })
	}
	wg.Wait()
	b.Logf("seeded %d cluster(s) × (%d Apps + %d Deployments) in %s", k, n, n, time.Since(begin).Round(time.Second))
	merged := clientcmdapi.NewConfig()
	for i, c := range f.clusters {
		cfg := c.AdminConfig()
		cfg.QPS, cfg.Burst = 1000, 1000
		f.dyns = append(f.dyns, dynamicClient(b, cfg))
		one, err := clientcmd.LoadFromFile(c.KubeconfigPath())
		if err != nil {
			b.Fatal(err)
		}
		ctx := one.Contexts[one.CurrentContext]
		name := fmt.Sprintf("c%d", i+1)
		merged.Clusters[name] = one.Clusters[ctx.Cluster]
		merged.AuthInfos[name] = one.AuthInfos[ctx.AuthInfo]
		merged.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
		if i == 0 {
			merged.CurrentContext = name
		}
	}
	f.kubeconfig = filepath.Join(b.TempDir(), "fleet.kubeconfig")
	if err := clientcmd.WriteToFile(*merged, f.kubeconfig); err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkBoard runs the board binary as a user does — in a real
// pseudo-terminal against seeded real API servers — and reads its screen.
// Run: go test -run '^$' -bench Board -benchtime 1x -timeout 60m ./internal/testing/bench
func BenchmarkBoard(b *testing.B) {
	k, n := envInt(boardClustersEnv, 1), envInt(boardNEnv, 10000)
	bin, err := buildBoard()
	if err != nil {
		b.Fatal(err)
	}
	f := startFleet(b, k, n)
	for b.Loop() {
		r := boardResult{Clusters: k, PerCluster: n, Phase: phaseLength()}
		r.APIPeakKubectl = kubectlPeak(b, f.clusters[0])
		if k > 1 {
			r.OneClusterFull, r.OneClusterCPU = oneClusterFull(b, bin, f)
		}
		runBoard(b, bin, f, &r)
		r.Plain = timePlainStart(b, bin, f)
		if grow := growTo(k, n); grow > n {
			growFleet(b, bin, f, grow, &r)
		}
		reportBoard(b, r)
		b.Log(r.table())
		recordBoard(r)
	}
}

// kubectlPeak is the API server's peak RSS while kubectl lists every App.
func kubectlPeak(b *testing.B, c *testcluster.Cluster) float64 {
	pid := c.APIServerPID()
	if err := resetPeakRSS(pid); err != nil {
		b.Logf("cannot reset the API server's peak RSS (%v): its figures are peaks since it started", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := c.Kubectl(ctx, "get", "apps.hanzo.ai", "-A", "-o", "json"); err != nil {
		b.Fatal(err)
	}
	return rssMiB(pid, "VmHWM")
}

// oneClusterFull is start → full board for cluster 1 alone, the baseline
// of the many-clusters target, and the CPU that start used.
func oneClusterFull(b *testing.B, bin string, f *fleetEnv) (time.Duration, startCPU) {
	args := []string{"--kubeconfig", f.kubeconfig, "--context", "c1", "--releases", "off", "--readonly"}
	w := startCPUWindow(b, "the start of one cluster alone", f, f.clusters[:1])
	p := startPTY(b, bin, args, isolatedEnv(b))
	defer p.Stop()
	n := strconv.Itoa(f.perCluster)
	at := p.await(b, "full board of one cluster", 10*time.Minute, func(s string) bool {
		return strings.Contains(s, n+"/"+n+" shown") && !strings.Contains(s, "syncing")
	})
	return at.Sub(p.Started()), w.since(p.pid())
}

// growTo is the size the single cluster grows to after the main run (0: none).
func growTo(clusters, n int) int {
	if clusters != 1 || os.Getenv(boardGrowEnv) == "off" {
		return 0
	}
	def := 0
	if n <= 10000 {
		def = 3 * n
	}
	return envInt(boardGrowEnv, def)
}

// growFleet seeds the cluster up to grow Apps and times the board's start
// again: the start's cost should grow linearly with the fleet.
func growFleet(b *testing.B, bin string, f *fleetEnv, grow int, r *boardResult) {
	begin := time.Now()
	seedRange(b, f.clusters[0], f.nss, f.perCluster, grow)
	b.Logf("grew the cluster to %d Apps + Deployments in %s", grow, time.Since(begin).Round(time.Second))
	w := startCPUWindow(b, "the grown start", f, f.clusters)
	p := startPTY(b, bin, boardArgs(f), isolatedEnv(b))
	defer p.Stop()
	n := strconv.Itoa(grow)
	at := p.await(b, "full board after growing", 10*time.Minute, func(s string) bool {
		return strings.Contains(s, n+"/"+n+" shown") && !strings.Contains(s, "syncing")
	})
	r.GrownTo, r.GrownFull, r.GrownStart = grow, at.Sub(p.Started()), w.since(p.pid())
}

func boardArgs(f *fleetEnv) []string {
	args := []string{"--kubeconfig", f.kubeconfig, "--releases", "off", "--readonly"}
	if len(f.clusters) > 1 {
		args = append(args, "--all-contexts")
	}
	return args
}

// isolatedEnv keeps the programs away from the user's config and logins.
func isolatedEnv(b *testing.B) []string {
	home := b.TempDir()
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}
}

// tool is a terminal program under measure: the board, or k9s for bench-peer.
type tool struct {
	name      string
	bin       string
	args      []string
	agent     string                   // its user agent's prefix, for the audit log
	full      func(screen string) bool // the whole fleet is listed
	nameOrder string                   // keys that sort by name ("" : none needed)
	showsTag  bool                     // the tag is on screen, so a patch's latency can be read
}

func boardTool(bin string, f *fleetEnv) tool {
	total := strconv.Itoa(f.total())
	return tool{name: "driftboard", bin: bin, args: boardArgs(f), agent: "driftboard", nameOrder: "s", showsTag: true,
		full: func(s string) bool {
			return strings.Contains(s, total+"/"+total+" shown") && !strings.Contains(s, "syncing")
		}}
}

func runBoard(b *testing.B, bin string, f *fleetEnv, r *boardResult) {
	runTool(b, boardTool(bin, f), f, r)
}

func runTool(b *testing.B, t tool, f *fleetEnv, r *boardResult) {
	api := f.clusters[0].APIServerPID()
	w := startCPUWindow(b, t.name+"'s start", f, f.clusters)
	_ = resetPeakRSS(api)
	p := startPTY(b, t.bin, t.args, isolatedEnv(b))
	var syncingMu sync.Mutex
	lastSyncing := ""
	p.when(func(s string) bool { // never true: it keeps the last "syncing n/N" seen
		if line := syncingLine(s); line != "" {
			syncingMu.Lock()
			lastSyncing = line
			syncingMu.Unlock()
		}
		return false
	})
	first := p.await(b, t.name+": first rows", 10*time.Minute, func(s string) bool { return strings.Contains(s, "svc-") })
	r.FirstRows = first.Sub(p.Started())
	full := p.await(b, t.name+": every App listed", 10*time.Minute, t.full)
	r.FullBoard = full.Sub(p.Started())
	syncingMu.Lock()
	r.SyncingShown = lastSyncing
	syncingMu.Unlock()
	r.APIPeakBoard = rssMiB(api, "VmHWM")
	pid := p.pid()
	r.StartCPU, r.RSSSynced = processCPU(pid), rssMiB(pid, "VmRSS")
	r.Start = w.since(pid)
	perMinute := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * float64(time.Minute) / float64(r.Phase))
	}

	// Idle is the steady state: it starts once the one-off clean-up after
	// the sync (the sync's garbage returned 2 s after it) is behind.
	time.Sleep(settleAfterSync)
	idleStart, cpu0 := time.Now(), processCPU(pid)
	time.Sleep(r.Phase)
	idleEnd, cpu1 := time.Now(), processCPU(pid)
	r.IdleCPU = perMinute(cpu1 - cpu0)
	for _, c := range f.clusters {
		n := countRequestsBy(b, c, t.agent, [][2]time.Time{{idleStart, idleEnd}})[0]
		r.IdleLists += n.lists
		r.IdleWatches += n.watches
	}

	if t.nameOrder != "" { // name order puts svc-00000… on screen, so a patch to one of them is seen
		p.keys(b, t.nameOrder)
		p.await(b, "sort by name", 10*time.Second, func(s string) bool { return strings.Contains(s, "sort: name") })
	}
	cpu2 := processCPU(pid)
	boardChurn(b, p, f, r, t.showsTag)
	r.ChurnCPU = perMinute(processCPU(pid) - cpu2)
	r.RSSChurn = rssMiB(pid, "VmRSS")
}

// settleAfterSync separates the full board from the idle phase.
const settleAfterSync = 5 * time.Second

// syncingLine is the header line that says syncing, for the report.
func syncingLine(screen string) string {
	for line := range strings.SplitSeq(screen, "\n") {
		if i := strings.Index(line, "syncing"); i >= 0 {
			end := i + len("syncing")
			for end < len(line) && (line[end] == ' ' || line[end] == '/' || line[end] >= '0' && line[end] <= '9') {
				end++
			}
			return strings.TrimSpace(line[i:end])
		}
	}
	return ""
}
