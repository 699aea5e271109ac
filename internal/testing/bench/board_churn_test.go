package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/ptyterm"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// churnRuns numbers the churn phases of this process.
var churnRuns atomic.Int64

// boardChurn patches 20 App tags a second for the phase; every fourth
// patch is to an App on screen, and its latency is until the new tag shows.
func boardChurn(b *testing.B, p *ptyProgram, f *fleetEnv, r *boardResult, measure bool) {
	type sent struct {
		at time.Time
		w  *ptyterm.Waiter
	}
	var measured []sent
	var mu sync.Mutex
	var wg sync.WaitGroup
	var errs []error
	total := int(r.Phase.Seconds() * churnRate)
	run := int(churnRuns.Add(1))
	tick := time.NewTicker(time.Second / churnRate)
	defer tick.Stop()
	for seq := range total {
		<-tick.C
		ci, i := rand.IntN(len(f.clusters)), rand.IntN(f.perCluster)
		onScreen := measure && seq%4 == 0
		if onScreen {
			ci, i = (seq/4)%len(f.clusters), (seq/4/len(f.clusters))%visibleApps
		}
		ns, name := f.nss[i%len(f.nss)], appName(i)
		tag := fmt.Sprintf("v%d.%d.0", 9+run, seq) // unique across runs on one fleet
		var w *ptyterm.Waiter
		if onScreen {
			w = p.when(func(s string) bool { return strings.Contains(s, tag+"→") })
		}
		wg.Go(func() {
			body := fmt.Sprintf(`{"spec":{"image":{"tag":%q}}}`, tag)
			at := time.Now()
			_, err := f.dyns[ci].Resource(testcluster.AppsGVR).Namespace(ns).Patch(context.Background(), name,
				types.MergePatchType, []byte(body), metav1.PatchOptions{})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if w != nil {
				measured = append(measured, sent{at: at, w: w})
			}
		})
	}
	wg.Wait()
	r.Patches = total
	if len(errs) > 0 {
		b.Fatalf("%d churn patches failed, first: %v", len(errs), errs[0])
	}
	deadline := time.Now().Add(10 * time.Second)
	var lat []time.Duration
	for _, m := range measured {
		select {
		case <-m.w.Hit():
			lat = append(lat, m.w.At().Sub(m.at))
		case <-time.After(time.Until(deadline)):
			r.Lost++
		}
	}
	r.Measured = len(lat)
	r.P50, r.P99, r.Max = percentile(lat, 0.50), percentile(lat, 0.99), percentile(lat, 1)
}
