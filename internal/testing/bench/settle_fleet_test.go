package bench

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// apiServerForcedGCs is how many GCs the API server ran on request (its heap
// profile's MemStats; needs Options.Profiling): its periodic and
// allocation-paced ones are not counted, so a GC of its own during the
// settle cannot pass for the forced one.
func apiServerForcedGCs(t *testing.T, c *testcluster.Cluster) int {
	t.Helper()
	raw, err := c.AdminClient().Discovery().RESTClient().Get().AbsPath("/debug/pprof/heap").Param("debug", "1").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("the API server's heap profile: %v", err)
	}
	m := regexp.MustCompile(`(?m)^# NumForcedGC = (\d+)$`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no NumForcedGC in the API server's heap profile (%d bytes)", len(raw))
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func TestSettleFleetCollectsEveryAPIServersGarbage(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Profiling: true})
	f := &fleetEnv{clusters: []*testcluster.Cluster{c}}
	before := apiServerForcedGCs(t, c)
	begin := time.Now()
	s := settleFleet(t, "a start", f)
	if !s.Quiet || !s.Collected || s.mark() != "" {
		t.Fatalf("an idle cluster: got %+v, mark %q", s, s.mark())
	}
	if s.Waited < 2*startSettle.window || s.Waited > time.Since(begin) {
		t.Errorf("waited %s: want a quiet window before the GC and one after it", s.Waited)
	}
	if after := apiServerForcedGCs(t, c); after <= before {
		t.Errorf("the API server was not made to collect its garbage while the fleet settled (NumForcedGC %d → %d)", before, after)
	}
}
