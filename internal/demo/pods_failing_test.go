package demo

import (
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// The demo's crash-looping and unpullable workloads are named on their rows
// through the Fleet's per-workload pod watches, and healthy rows start none.
func TestDemoNamesFailingPods(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 7, Speed: 4})
	reasons := map[string]int{}
	waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool {
		clear(reasons)
		for _, r := range s.Rows() {
			for _, p := range r.Problems {
				if p.Kind == model.ProblemPodsFailing && len(p.Pods) > 0 {
					reasons[p.Reason]++
				}
			}
		}
		return reasons["CrashLoopBackOff"] > 0 && reasons["ImagePullBackOff"] > 0
	}, "rows naming crash-looping and unpullable pods")
	running, _ := d.Fleet().PodWatches()
	rows := d.Fleet().Snapshot().Len()
	t.Logf("pods-failing by reason %v; %d pod watches for %d rows", reasons, running, rows)
	if running == 0 || running >= rows/2 {
		t.Errorf("%d pod watches for %d rows: want only the unready or rolling ones", running, rows)
	}
}
