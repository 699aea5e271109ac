package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

var karmadaBenchKinds = []schema.GroupVersionResource{
	testcluster.AppsGVR,
	{Group: "apps", Version: "v1", Resource: "deployments"},
	{Version: "v1", Resource: "namespaces"},
}

func getenv(name string) string { return os.Getenv(name) }

func countList(dyn dynamic.Interface, gvr schema.GroupVersionResource) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(l.Items), nil
}

// karmadaResult is one mode (direct or through Karmada) with nb boards.
type karmadaResult struct {
	mode   string
	boards int
	// Boards' start: until every one had its full board; each one's slowest.
	allSynced, slowest time.Duration
	boardRSS, boardCPU float64 // MiB and CPU-seconds, the mean board after its start
	boardHeap          float64 // MiB in use after a GC, the mean board
	boardChurnCPU      float64 // CPU-seconds per minute, the mean board under churn
	memberWatches      int     // the boards' WATCH requests on the busiest member (audit)
	memberWatchers     int     // registered watchers on the busiest member, boards running
	memberStartCPU     float64 // CPU-seconds, the busiest member API server, during the starts
	memberChurnCPU     float64 // CPU-seconds per minute, the busiest member under churn
	searchStartCPU     float64 // karmada-search (and Karmada's API server), during the starts
	searchChurnCPU     float64
	searchRSS          float64
}

func (f *karmadaFleet) measure(b *testing.B, mode string, nb int, churnFor time.Duration) karmadaResult {
	r := karmadaResult{mode: mode, boards: nb}
	path, env := f.direct, []string{childAllEnv + "=1"}
	if mode == "karmada" {
		path, env = f.throughK, []string{childKarmadaEnv + "=" + strings.Join(f.names, ",")}
	}
	planeCPU := func() []time.Duration {
		out := []time.Duration{processCPU(f.k.PIDs()["karmada-search"]) + processCPU(f.k.Host().APIServerPID())}
		for _, c := range f.members {
			out = append(out, processCPU(c.APIServerPID()))
		}
		return out
	}
	cpu0, begin := planeCPU(), time.Now()
	boards := make([]*boardProcess, nb)
	for i := range boards {
		boards[i] = startBoard(b, path, len(f.members)*f.n, env...)
	}
	for _, p := range boards {
		fs := p.expect(b, "synced", 10*time.Minute)
		ns, _ := strconv.ParseInt(fs[1], 10, 64)
		r.slowest = max(r.slowest, time.Duration(ns))
	}
	r.allSynced = time.Since(begin)
	synced := time.Now()
	cpu1 := planeCPU()
	r.searchStartCPU = (cpu1[0] - cpu0[0]).Seconds()
	for i := range f.members {
		r.memberStartCPU = max(r.memberStartCPU, (cpu1[i+1] - cpu0[i+1]).Seconds())
	}
	before := make([]childStats, nb)
	for i, p := range boards {
		before[i] = p.stats(b, true)
		r.boardRSS += before[i].RSS / float64(nb)
		r.boardHeap += before[i].Heap / float64(nb)
		r.boardCPU += before[i].CPU.Seconds() / float64(nb)
	}
	time.Sleep(2 * time.Second) // a watch is audited when its stream starts
	for i, c := range f.members {
		counts := countRequestsBy(b, c, "driftboard", [][2]time.Time{{begin, synced}})
		r.memberWatches = max(r.memberWatches, counts[0].watches)
		r.memberWatchers = max(r.memberWatchers, registeredWatchers(f.members[i]))
	}

	cpu2 := planeCPU()
	var wg sync.WaitGroup
	for _, c := range f.members {
		wg.Go(func() { churn(b, c, f.nss, f.n, churnFor) })
	}
	wg.Wait()
	cpu3 := planeCPU()
	perMinute := func(d time.Duration) float64 { return d.Seconds() * float64(time.Minute) / float64(churnFor) }
	r.searchChurnCPU = perMinute(cpu3[0] - cpu2[0])
	for i := range f.members {
		r.memberChurnCPU = max(r.memberChurnCPU, perMinute(cpu3[i+1]-cpu2[i+1]))
	}
	for i, p := range boards {
		r.boardChurnCPU += perMinute(p.stats(b, false).CPU-before[i].CPU) / float64(nb)
		p.stop()
	}
	r.searchRSS = rssMiB(f.k.PIDs()["karmada-search"], "VmRSS")
	time.Sleep(3 * time.Second) // the boards' watches end
	return r
}

// registeredWatchers is the watches the API server serves, whoever opened
// them: apiserver_longrunning_requests of verb WATCH summed over kinds
// (apiserver_registered_watchers where an older API server still has it).
func registeredWatchers(c *testcluster.Cluster) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := c.AdminClient().Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return -1
	}
	longrunning, registered := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		n, ok := counterValue(line)
		switch {
		case !ok:
		case strings.HasPrefix(line, "apiserver_longrunning_requests{") && label(line, "verb") == "WATCH":
			longrunning += n
		case strings.HasPrefix(line, "apiserver_registered_watchers{"):
			registered += n
		}
	}
	if longrunning > 0 {
		return longrunning
	}
	return registered
}

func karmadaTable(f *karmadaFleet, rs []karmadaResult) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d members × (%d Apps + %d Deployments)\n", len(f.members), f.n, f.n)
	s.WriteString("| mode | boards | all boards full | slowest board | board RSS | board heap | board CPU to start | board CPU churn/min " +
		"| member: boards' watches | member: watchers | member CPU, starts | member CPU churn/min " +
		"| Karmada CPU, starts | Karmada CPU churn/min | karmada-search RSS |\n")
	s.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&s, "| %s | %d | %s | %s | %.0f MiB | %.0f MiB | %.2f s | %.2f s | %d | %d | %.2f s | %.2f s | %.2f s | %.2f s | %.0f MiB |\n",
			r.mode, r.boards, r.allSynced.Round(time.Millisecond), r.slowest.Round(time.Millisecond), r.boardRSS, r.boardHeap, r.boardCPU,
			r.boardChurnCPU, r.memberWatches, r.memberWatchers, r.memberStartCPU, r.memberChurnCPU,
			r.searchStartCPU, r.searchChurnCPU, r.searchRSS)
	}
	return s.String()
}
