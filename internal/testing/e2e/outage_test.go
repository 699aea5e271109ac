package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// churner patches App tags in the background (errors while the server is
// down are expected and ignored), so the truth keeps moving under outages.
type churner struct {
	stop context.CancelFunc
	done sync.WaitGroup
	sent atomic.Int64
}

func startChurn(c *testcluster.Cluster, ns string, apps []string, perSecond int) *churner {
	ctx, cancel := context.WithCancel(context.Background())
	ch := &churner{stop: cancel}
	res := c.AdminDynamic().Resource(testcluster.AppsGVR).Namespace(ns)
	ch.done.Go(func() {
		tick := time.NewTicker(time.Second / time.Duration(perSecond))
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			body := fmt.Sprintf(`{"spec":{"image":{"tag":"v5.%d.0"}}}`, i)
			pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
			if _, err := res.Patch(pctx, apps[i%len(apps)], types.MergePatchType, []byte(body), metav1.PatchOptions{}); err == nil {
				ch.sent.Add(1)
			}
			pcancel()
		}
	})
	return ch
}

func (ch *churner) halt() int64 {
	ch.stop()
	ch.done.Wait()
	return ch.sent.Load()
}

// The API server crashes (SIGKILL) while Apps churn; behind its back, etcd
// is edited directly (tags changed, Apps deleted, revisions moved on) and
// compacted, so no watch can resume: the informers must get 410 Gone and
// relist. Then etcd itself restarts. Each time the rows go stale while the
// cluster is down and end equal to a fresh list, with no duplicate.
func TestOutagesAndExpiredWatchesConverge(t *testing.T) {
	t.Parallel()
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-testnet")
	apps := names("svc", 30)
	seedApps(t, c, "hanzo", apps, "v1.0.0")
	seedApps(t, c, "hanzo-testnet", names("web", 10), "v2.0.0")
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	assertConverged(t, c, f, 60*time.Second)
	etcd := etcdOf(t, c)

	t.Run("api server crash with expired watches", func(t *testing.T) {
		// The first five Apps are edited only in etcd below: no event
		// ever tells the board, only a relist can.
		ch := startChurn(c, "hanzo", apps[5:], 20)
		time.Sleep(time.Second)
		c.KillAPIServer()
		down := time.Now()
		snap := waitBoard(t, f, 60*time.Second, "the board to notice the outage", func(s *store.Snapshot) bool {
			return phaseOf(s) == model.ConnReconnecting
		})
		for _, r := range snap.Rows() {
			if !r.Offline {
				t.Fatalf("row %s is shown live while the cluster is %s", r.Key(), phaseOf(snap))
			}
		}

		// Behind the API server's back: what only a relist can find out.
		for _, name := range apps[:5] {
			etcd.editApp("hanzo", name, func(obj map[string]any) {
				obj["spec"].(map[string]any)["image"].(map[string]any)["tag"] = "v7.0.0-etcd"
			})
		}
		for _, name := range []string{"web-000", "web-001", "web-002"} {
			etcd.del("/registry/hanzo.ai/apps/hanzo-testnet/" + name)
		}
		for i := range 200 {
			etcd.put(fmt.Sprintf("/e2e-filler/%03d", i), []byte("x"))
		}
		rev := etcd.compact()
		t.Logf("etcd edited and compacted at revision %d while the API server was down", rev)

		c.StartAPIServer()
		time.Sleep(2 * time.Second) // churn on across the restart
		t.Logf("%d churn patches applied", ch.halt())
		assertConverged(t, c, f, 90*time.Second)
		if n := appRelists(t, c, down); n == 0 {
			t.Errorf("the board converged without re-listing Apps after the outage; the test did not expire its watch")
		} else {
			t.Logf("the board re-listed Apps %d times after the outage", n)
		}
		if row := findRow(f.Snapshot(), key("hanzo", apps[0])); row == nil || row.DeclaredTag != "v7.0.0-etcd" {
			t.Fatalf("row %s after the outage: %+v", apps[0], row)
		}
	})

	t.Run("etcd crash and restart", func(t *testing.T) {
		ch := startChurn(c, "hanzo", apps, 20)
		time.Sleep(time.Second)
		phases := watchPhases(f)
		c.KillEtcd() // a crash, and 8 s without a store
		time.Sleep(8 * time.Second)
		c.RestartEtcd()
		time.Sleep(2 * time.Second)
		t.Logf("%d churn patches applied", ch.halt())
		assertConverged(t, c, f, 90*time.Second)
		t.Logf("cluster phases seen across the etcd restart: %v", phases())
	})
}

// watchPhases records the cluster phases the board goes through (polled
// every 20 ms) until the returned function is called.
func watchPhases(f *kube.Fleet) func() []model.ConnPhase {
	var mu sync.Mutex
	var seen []model.ConnPhase
	done := make(chan struct{})
	go func() {
		for {
			p := phaseOf(f.Snapshot())
			mu.Lock()
			if len(seen) == 0 || seen[len(seen)-1] != p {
				seen = append(seen, p)
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() []model.ConnPhase {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// appRelists counts the full reads of Apps the board (user agent
// driftboard) made since t0, from the audit log: LISTs, and WATCHes that
// stream the initial state (watch-list, client-go's default where served).
func appRelists(t *testing.T, c *testcluster.Cluster, t0 time.Time) int {
	t.Helper()
	events, err := c.AuditEvents()
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	n := 0
	for _, ev := range events {
		// A LIST is logged when complete, a WATCH when its stream starts.
		relist := ev.Verb == "list" && ev.Stage == "ResponseComplete" ||
			ev.Verb == "watch" && ev.Stage == "ResponseStarted" && strings.Contains(ev.RequestURI, "sendInitialEvents=true")
		if relist && strings.HasPrefix(ev.UserAgent, "driftboard") && ev.ObjectRef != nil &&
			ev.ObjectRef.Resource == "apps" && ev.RequestReceivedTimestamp.After(t0) {
			n++
		}
	}
	return n
}

func findRow(s *store.Snapshot, k model.Key) *model.AppView {
	for _, r := range s.Rows() {
		if r.Key() == k {
			return r
		}
	}
	return nil
}
