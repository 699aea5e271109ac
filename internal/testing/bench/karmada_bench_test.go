package bench

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Knobs of the Karmada benchmark, from the environment:
//
//	DRIFTBOARD_BENCH_KARMADA_MEMBERS  member API servers (default 3)
//	DRIFTBOARD_BENCH_KARMADA_N        Apps (and Deployments) per member (default 1000)
//	DRIFTBOARD_BENCH_KARMADA_BOARDS   comma-separated boards started at once (default 1,3)
//	DRIFTBOARD_BENCH_KARMADA_SECONDS  length of the churn phase (default 20)
const (
	karmadaMembersEnv = "DRIFTBOARD_BENCH_KARMADA_MEMBERS"
	karmadaNEnv       = "DRIFTBOARD_BENCH_KARMADA_N"
	karmadaBoardsEnv  = "DRIFTBOARD_BENCH_KARMADA_BOARDS"
	karmadaSecondsEnv = "DRIFTBOARD_BENCH_KARMADA_SECONDS"
)

// karmadaFleet is Karmada with seeded members, and the kubeconfigs of both
// ways of reading them.
type karmadaFleet struct {
	k        *karmadatest.Karmada
	members  []*testcluster.Cluster
	names    []string
	nss      []string
	n        int
	direct   string // every member, one context each
	throughK string // Karmada's API server
}

// BenchmarkKarmada starts 1 and several boards at once, each reading every
// member direct, then through Karmada's search proxy, and measures what the
// members, the proxy and the boards spend.
// Run: go test -run '^$' -bench Karmada -benchtime 1x -timeout 60m ./internal/testing/bench
func BenchmarkKarmada(b *testing.B) {
	f := startKarmadaFleet(b, envInt(karmadaMembersEnv, 3), envInt(karmadaNEnv, 1000))
	boards := envList(karmadaBoardsEnv, []int{1, 3})
	churnFor := time.Duration(envInt(karmadaSecondsEnv, 20)) * time.Second
	for b.Loop() {
		var rs []karmadaResult
		for _, nb := range boards {
			rs = append(rs, f.measure(b, "direct", nb, churnFor))
		}
		search := f.k.PIDs()["karmada-search"]
		rss0, cpu0 := rssMiB(search, "VmRSS"), processCPU(search)
		begin := time.Now()
		f.k.Cache(f.names...)
		cached := f.cachedObjects(b)
		time.Sleep(5 * time.Second) // the proxy's caches fill after it serves
		cacheCost := fmt.Sprintf("karmada-search: %.0f MiB RSS idle, %.0f MiB with %d objects cached "+
			"(%.1f KiB each), %s CPU to cache them (served after %s)",
			rss0, rssMiB(search, "VmRSS"), cached, (rssMiB(search, "VmRSS")-rss0)*1024/float64(cached),
			(processCPU(search) - cpu0).Round(10*time.Millisecond), time.Since(begin).Round(time.Millisecond))
		for _, nb := range boards {
			rs = append(rs, f.measure(b, "karmada", nb, churnFor))
		}
		b.Log("\n" + karmadaTable(f, rs) + cacheCost)
		fmt.Println(karmadaTable(f, rs) + cacheCost)
	}
}

func startKarmadaFleet(b *testing.B, members, n int) *karmadaFleet {
	f := &karmadaFleet{k: karmadatest.Start(b), nss: benchNamespaces(), n: n}
	contexts := map[string]*rest.Config{}
	var wg sync.WaitGroup
	for i := range members {
		c := testcluster.Start(b, testcluster.Options{})
		name := fmt.Sprintf("member%d", i+1)
		f.members, f.names = append(f.members, c), append(f.names, name)
		contexts[name] = c.AdminConfig()
		c.CreateNamespaces(f.nss...)
		wg.Go(func() { seedFleet(b, c, f.nss, n) })
	}
	begin := time.Now()
	wg.Wait()
	b.Logf("seeded %d members × (%d Apps + %d Deployments) in %s", members, n, n, time.Since(begin).Round(time.Second))
	for i, c := range f.members {
		f.k.Join(f.names[i], c)
	}
	dir := b.TempDir()
	f.direct, f.throughK = filepath.Join(dir, "direct.kubeconfig"), filepath.Join(dir, "karmada.kubeconfig")
	if err := karmadatest.WriteKubeconfig(f.direct, contexts); err != nil {
		b.Fatal(err)
	}
	if err := karmadatest.WriteKubeconfig(f.throughK, map[string]*rest.Config{"karmada": f.k.Host().AdminConfig()}); err != nil {
		b.Fatal(err)
	}
	return f
}

// cachedObjects counts what the proxy serves of the registry's kinds.
func (f *karmadaFleet) cachedObjects(b *testing.B) int {
	dyn := dynamicClient(b, f.k.ProxyConfig())
	total := 0
	for _, gvr := range karmadaBenchKinds {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			n, err := countList(dyn, gvr)
			if err == nil && (gvr.Resource != "apps" || n >= len(f.members)*f.n) || time.Now().After(deadline) {
				total += n
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return total
}

func envList(name string, def []int) []int {
	var out []int
	for s := range strings.SplitSeq(getenv(name), ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(s), &n); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return def
	}
	return out
}
