package kube

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/testcluster"
)

// BenchmarkFleetSyncReal seeds a real API server with N Apps (~1.5 KB specs)
// and their Deployments across 50 namespaces, then measures a Fleet from
// Start to the first full snapshot, and the process RSS and Go heap then.
// N defaults to 2000; DRIFTBOARD_BENCH_N overrides. Run with -benchtime=1x.
func BenchmarkFleetSyncReal(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("DRIFTBOARD_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	c := testcluster.Start(b, testcluster.Options{})
	nss := make([]string, 50)
	for i := range nss {
		nss[i] = fmt.Sprintf("hanzo-bench-%02d", i)
	}
	c.CreateNamespaces(nss...)
	seedStart := time.Now()
	seedMany(b, c, nss, n)
	b.Logf("seeded %d Apps + %d Deployments in %s", n, n, time.Since(seedStart).Round(time.Millisecond))

	ctx := context.Background()
	floor := time.Now()
	if _, err := c.Kubectl(ctx, "get", "apps.hanzo.ai", "-A", "-o", "json"); err != nil {
		b.Fatal(err)
	}
	appsFloor := time.Since(floor)
	floor = time.Now()
	if _, err := c.Kubectl(ctx, "get", "deployments", "-A", "-o", "json"); err != nil {
		b.Fatal(err)
	}
	deployFloor := time.Since(floor)

	for b.Loop() {
		debug.FreeOSMemory()
		base := rssMiB()
		start := time.Now()
		cc, err := NewClusterClients(testClusterName, c.AdminConfig(), ConnectOptions{})
		if err != nil {
			b.Fatal(err)
		}
		f := NewFleet(FleetOptions{}, cc)
		fctx, cancel := context.WithCancel(ctx)
		f.Start(fctx)
		if err := f.WaitSynced(fctx); err != nil {
			b.Fatal(err)
		}
		snap := f.Snapshot()
		elapsed := time.Since(start)
		if len(snap.Rows) != n {
			b.Fatalf("%d rows, want %d", len(snap.Rows), n)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss := rssMiB()
		b.ReportMetric(elapsed.Seconds(), "s-to-board")
		b.ReportMetric(rss, "MiB-RSS")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-heap")
		b.ReportMetric(base, "MiB-RSS-before")
		b.ReportMetric(appsFloor.Seconds(), "s-kubectl-apps")
		b.ReportMetric(deployFloor.Seconds(), "s-kubectl-deploys")
		b.Logf("N=%d: board in %s (kubectl floor: apps %s, deployments %s), RSS %.0f MiB (%.0f before), heap %.0f MiB",
			n, elapsed.Round(time.Millisecond), appsFloor.Round(time.Millisecond), deployFloor.Round(time.Millisecond),
			rss, base, float64(ms.HeapAlloc)/(1<<20))
		cancel()
	}
}

// seedMany creates n Apps with padded specs and their Deployments, 16 at a time.
func seedMany(b *testing.B, c *testcluster.Cluster, nss []string, n int) {
	pad := make([]any, 0, 24)
	for i := range 24 {
		pad = append(pad, map[string]any{"name": fmt.Sprintf("SETTING_%02d", i), "value": strings.Repeat("x", 40)})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	sem := make(chan struct{}, 16)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ns, name := nss[i%len(nss)], fmt.Sprintf("svc-%05d", i)
			app := testcluster.AppObject(ns, name, "service", "ghcr.io/hanzoai/"+name, "v1.2.3", 2)
			unstructured.SetNestedSlice(app.Object, pad, "spec", "env")
			ctx := context.Background()
			stored, err := c.AdminDynamic().Resource(appsGVR).Namespace(ns).Create(ctx, app, metav1.CreateOptions{})
			if err == nil {
				_, err = c.AdminClient().AppsV1().Deployments(ns).Create(ctx, testcluster.OperatorDeployment(stored), metav1.CreateOptions{})
			}
			if err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		})
	}
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
}

func rssMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
