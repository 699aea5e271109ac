package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Knobs, from the environment:
//
//	DRIFTBOARD_BENCH_SIZES    comma-separated App counts (default 2000,10000)
//	DRIFTBOARD_BENCH_SECONDS  length of the idle and of the churn phase (default 60)
const (
	sizesEnv   = "DRIFTBOARD_BENCH_SIZES"
	secondsEnv = "DRIFTBOARD_BENCH_SECONDS"
	churnRate  = 20 // App tag patches per second
)

func benchSizes() []int {
	sizes := []int{2000, 10000}
	if v := os.Getenv(sizesEnv); v != "" {
		sizes = nil
		for s := range strings.SplitSeq(v, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n > 0 {
				sizes = append(sizes, n)
			}
		}
	}
	return sizes
}

func phaseLength() time.Duration {
	if n, err := strconv.Atoi(os.Getenv(secondsEnv)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 60 * time.Second
}

// BenchmarkFleet measures the board against a real API server at each size.
// Run: go test -run '^$' -bench Fleet -benchtime 1x -timeout 60m ./internal/testing/bench
func BenchmarkFleet(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { benchFleet(b, n) })
	}
}

func benchFleet(b *testing.B, n int) {
	c := testcluster.Start(b, testcluster.Options{})
	nss := benchNamespaces()
	c.CreateNamespaces(nss...)
	begin := time.Now()
	seedFleet(b, c, nss, n)
	b.Logf("seeded %d Apps + %d Deployments (with status) in %s", n, n, time.Since(begin).Round(time.Second))
	apiserver := c.APIServerPID()

	for b.Loop() {
		r := result{N: n, SpecBytes: appSpecBytes(), Phase: phaseLength()}
		r.KubectlApps, r.KubectlDeploy = kubectlFloor(b, c)
		r.RawList = rawListFloor(b, c)

		child := startBoard(b, c.KubeconfigPath(), n)
		f := child.expect(b, "synced", 15*time.Minute)
		r.ToBoard = time.Since(child.started)
		nsec, _ := strconv.ParseInt(f[1], 10, 64)
		r.ChildToBoard = time.Duration(nsec)
		synced := time.Now()
		s0 := child.stats(b, true)
		r.SyncCPU, r.RSS, r.Peak, r.Heap = s0.CPU, s0.RSS, s0.Peak, s0.Heap

		// Idle: nothing changes; the board should cost nothing and ask nothing.
		idleStart, api0 := time.Now(), processCPU(apiserver)
		time.Sleep(r.Phase)
		s1 := child.stats(b, false)
		idleEnd, api1 := time.Now(), processCPU(apiserver)
		perMinute := func(d time.Duration) time.Duration {
			return time.Duration(float64(d) * float64(time.Minute) / float64(r.Phase))
		}
		r.IdleCPU = perMinute(s1.CPU - s0.CPU)
		r.IdleAPIServerCPU = perMinute(api1 - api0)
		counts := countRequests(b, c, [][2]time.Time{{child.started, synced}, {idleStart, idleEnd}})
		r.StartLists, r.IdleLists, r.IdleWatches = counts[0].lists, counts[1].lists, counts[1].watches

		// Churn: 20 App tag patches per second, then the time each reached a snapshot.
		patches := churn(b, c, nss, n, r.Phase)
		s2 := child.stats(b, false)
		r.ChurnCPU = perMinute(s2.CPU - s1.CPU)
		r.Patches = len(patches)
		latencies(b, child, patches, &r)
		child.stop()

		reportMetrics(b, r)
		b.Log(r.table())
		record(r)
	}
}

func kubectlFloor(b *testing.B, c *testcluster.Cluster) (apps, deploys time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := c.Kubectl(ctx, "get", "namespaces"); err != nil { // warm the discovery cache, as a user's is
		b.Fatal(err)
	}
	timed := func(args ...string) time.Duration {
		begin := time.Now()
		if _, err := c.Kubectl(ctx, args...); err != nil {
			b.Fatal(err)
		}
		return time.Since(begin)
	}
	return timed("get", "apps.hanzo.ai", "-A", "-o", "json"), timed("get", "deployments", "-A", "-o", "json")
}

// rawListFloor is the bare transfer: one LIST of every App (JSON, as the
// dynamic client must) and every Deployment (protobuf), decoded, no output.
func rawListFloor(b *testing.B, c *testcluster.Cluster) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cfg := c.AdminConfig()
	dyn := dynamicClient(b, cfg)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	kc, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	if _, err := dyn.Resource(testcluster.AppsGVR).List(ctx, metav1.ListOptions{}); err != nil {
		b.Fatal(err)
	}
	if _, err := kc.AppsV1().Deployments("").List(ctx, metav1.ListOptions{}); err != nil {
		b.Fatal(err)
	}
	return time.Since(begin)
}

type requestCount struct{ lists, watches int }

// countRequests counts the board's LIST and WATCH requests (user agent
// "driftboard") the audit log saw in each window.
func countRequests(b *testing.B, c *testcluster.Cluster, windows [][2]time.Time) []requestCount {
	return countRequestsBy(b, c, "driftboard", windows)
}

// countRequestsBy counts the LIST and WATCH requests of the user agent
// starting with agent.
func countRequestsBy(b *testing.B, c *testcluster.Cluster, agent string, windows [][2]time.Time) []requestCount {
	events, err := c.AuditEvents()
	if err != nil {
		b.Fatalf("read audit log: %v", err)
	}
	out := make([]requestCount, len(windows))
	for _, ev := range events {
		// A LIST is logged when complete, a WATCH when its stream starts.
		list := ev.Verb == "list" && ev.Stage == "ResponseComplete"
		watch := ev.Verb == "watch" && ev.Stage == "ResponseStarted"
		if !strings.HasPrefix(ev.UserAgent, agent) || !list && !watch {
			continue
		}
		for i, w := range windows {
			if ev.RequestReceivedTimestamp.Before(w[0]) || ev.RequestReceivedTimestamp.After(w[1]) {
				continue
			}
			if list {
				out[i].lists++
			} else {
				out[i].watches++
			}
		}
	}
	return out
}

// patch is one churn patch: which row, which tag, when sent and acknowledged.
type patch struct {
	key, tag    string
	sent, acked time.Time
	err         error
}

func churn(b *testing.B, c *testcluster.Cluster, nss []string, n int, length time.Duration) []*patch {
	cfg := c.AdminConfig()
	cfg.QPS, cfg.Burst = 1000, 1000
	dyn := dynamicClient(b, cfg)
	order := rand.Perm(n)
	total := int(length.Seconds() * churnRate)
	patches := make([]*patch, 0, total)
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / churnRate)
	defer tick.Stop()
	for seq := range total {
		<-tick.C
		i := order[seq%n]
		ns, name := nss[i%len(nss)], appName(i)
		p := &patch{key: ns + "/" + name, tag: fmt.Sprintf("v9.%d.0", seq)}
		patches = append(patches, p)
		wg.Go(func() {
			body := fmt.Sprintf(`{"spec":{"image":{"tag":%q}}}`, p.tag)
			p.sent = time.Now()
			_, p.err = dyn.Resource(testcluster.AppsGVR).Namespace(ns).Patch(context.Background(), name,
				types.MergePatchType, []byte(body), metav1.PatchOptions{})
			p.acked = time.Now()
		})
	}
	wg.Wait()
	return patches
}

// latencies waits (up to 10 s) for every patch to show, then fills the
// percentiles; a patch whose row never showed its tag counts as lost.
func latencies(b *testing.B, child *boardProcess, patches []*patch, r *result) {
	deadline := time.Now().Add(10 * time.Second)
	var fromSent, fromAck []time.Duration
	for _, p := range patches {
		if p.err != nil {
			b.Fatalf("churn patch %s: %v", p.key, p.err)
		}
		var at time.Time
		var ok bool
		for {
			if at, ok = child.seenAt(p.key, p.tag); ok || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !ok {
			r.Lost++
			continue
		}
		fromSent = append(fromSent, at.Sub(p.sent))
		fromAck = append(fromAck, at.Sub(p.acked))
	}
	r.P50, r.P99, r.Max = percentile(fromSent, 0.50), percentile(fromSent, 0.99), percentile(fromSent, 1)
	r.AckP50, r.AckP99 = percentile(fromAck, 0.50), percentile(fromAck, 0.99)
}
