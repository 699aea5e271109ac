package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model/store"
)

// The board process: the benchmark re-executes its own test binary with
// these variables set, and TestMain runs runChild instead of the tests, so
// the child's RSS and CPU are the board's alone.
const (
	childKubeconfigEnv = "DRIFTBOARD_BENCH_CHILD_KUBECONFIG"
	childRowsEnv       = "DRIFTBOARD_BENCH_CHILD_ROWS"
	// cpuProfileEnv names a file for the board's CPU profile from start to
	// the first full board (go tool pprof bench.test <file>).
	cpuProfileEnv = "DRIFTBOARD_BENCH_CPUPROFILE"
)

// childOut serialises the child's protocol lines on stdout.
type childOut struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (o *childOut) printf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.w, format+"\n", args...)
	o.w.Flush()
}

// runChild connects like the real program (kubeconfig rules, kube.Connect),
// starts a Fleet, waits for a full board, then reports:
//
//	synced <rows> <ns from Connect to the first full snapshot>
//	seen <namespace>/<name> <declared tag> <unix ns>   (each tag change that reaches a snapshot)
//	stats <cpu ns> <rss kB> <peak rss kB> <heap-inuse bytes> <goroutines>   (on "stats"/"gcstats" from stdin)
//
// and exits on "quit" or when stdin closes.
func runChild() int {
	out := &childOut{w: bufio.NewWriter(os.Stdout)}
	rows, _ := strconv.Atoi(os.Getenv(childRowsEnv))
	if path := os.Getenv(cpuProfileEnv); path != "" {
		if prof, err := os.Create(path); err == nil && pprof.StartCPUProfile(prof) == nil {
			defer prof.Close()
			defer pprof.StopCPUProfile() // a no-op after the stop below
		}
	}
	begin := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients, failed := childClients()
	if len(clients) == 0 {
		fmt.Fprintf(os.Stderr, "child: connect: %+v\n", failed)
		return 2
	}
	f := kube.NewFleet(kube.FleetOptions{Failed: failed}, clients...)
	f.Start(ctx)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer wcancel()
	if err := f.WaitSynced(wctx); err != nil {
		fmt.Fprintf(os.Stderr, "child: WaitSynced: %v\n", err)
		return 2
	}
	snap := f.Snapshot()
	for snap.Len() < rows {
		select {
		case <-f.Changed():
			snap = f.Snapshot()
		case <-wctx.Done():
			fmt.Fprintf(os.Stderr, "child: %d rows after sync, want %d\n", snap.Len(), rows)
			return 2
		}
	}
	elapsed := time.Since(begin)
	pprof.StopCPUProfile()
	out.printf("synced %d %d", snap.Len(), elapsed.Nanoseconds())

	go followTags(f, snap, out)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch in.Text() {
		case "gcstats":
			runtime.GC()
			out.printf("stats %s", stats())
		case "stats":
			out.printf("stats %s", stats())
		case "quit":
			return 0
		}
	}
	return 0
}

// followTags is what the UI loop does: wait on Changed, take a snapshot. It
// reports rows whose declared tag moved; rows are replaced, never mutated, so
// comparing pointers finds the changed ones cheaply.
func followTags(f *kube.Fleet, prev *store.Snapshot, out *childOut) {
	for range f.Changed() {
		snap := f.Snapshot()
		now := time.Now().UnixNano()
		if snap.Len() == prev.Len() {
			for i, r := range snap.Rows() {
				p := prev.Rows()[i]
				if r != p && r.Key() == p.Key() && r.DeclaredTag != p.DeclaredTag {
					out.printf("seen %s/%s %s %d", r.Namespace, r.App, r.DeclaredTag, now)
				}
			}
		}
		prev = snap
	}
}

// stats is "<cpu ns> <rss kB> <peak rss kB> <heap-inuse bytes> <goroutines>".
func stats() string {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, hwm := procStatusKB("VmRSS"), procStatusKB("VmHWM")
	return fmt.Sprintf("%d %d %d %d %d", cpu.Nanoseconds(), rss, hwm, ms.HeapInuse, runtime.NumGoroutine())
}

func procStatusKB(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return -1
}
