package bench

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// settleRule is how the bench waits until every cluster's control plane
// (API server + etcd) is quiet.
type settleRule struct {
	window  time.Duration // CPU is read over windows this long
	busy    float64       // settled: every control plane under this share of one core over a window
	maxWait time.Duration // then the start is timed anyway, and its figure marked unsettled
}

// startSettle: measured here (1.37.2, etcd 3.7.3, 2 cores), an idle control
// plane holding 2,000–10,000 Apps uses 1–3 % of a core from a second or two
// after seeding ends, a GC of its heap 25–75 % of a core for a window or two,
// and 20 patches a second (at 2,000 Apps) ~13 %; 8 % lies between idle and
// busy. 2 s windows read it to 0.5 % (10 ms ticks).
var startSettle = settleRule{window: 2 * time.Second, busy: 0.08, maxWait: 2 * time.Minute}

// settled is what the wait before a start found.
type settled struct {
	Waited    time.Duration
	Busy      float64 // the busiest control plane's share of one core over the last window
	Busiest   string  // its cluster
	Quiet     bool    // false: maxWait passed with a control plane still busy
	Collected bool    // every API server ran a full GC before the start
}

// settleFleet readies the fleet for a timed start, so that the start
// measures the board and not what the API servers did before it: it waits
// until every control plane is quiet (seeding, kubectl's list or the churn
// are over), has each API server collect its garbage, and waits for quiet
// again. Without the collection, whether a GC of the API server's heap
// (~350 MB live at 3,000 Apps, ~0.4–0.7 s of CPU a cycle)
// fell inside the start depended on what it had served since its last one:
// at 3,000 Apps its CPU for the same start varied 0.6–1.9 s, 0.6–0.9 s with
// a collection before.
func settleFleet(tb testing.TB, what string, f *fleetEnv) settled {
	tb.Helper()
	planes := controlPlanes(f.clusters)
	first := startSettle.wait(planes)
	ctx, cancel := context.WithTimeout(context.Background(), startSettle.maxWait)
	defer cancel()
	collected := true
	for _, c := range f.clusters {
		if err := c.CollectAPIServerGarbage(ctx); err != nil {
			tb.Logf("before %s: the API server's GC: %v", what, err)
			collected = false
		}
	}
	after := startSettle
	after.maxWait = max(startSettle.maxWait-first.Waited, startSettle.window) // one bound for the whole settle
	s := after.wait(planes)
	s.Waited += first.Waited
	s.Quiet = s.Quiet && first.Quiet
	s.Collected = collected
	tb.Logf("before %s: %s", what, s)
	return s
}

func (s settled) String() string {
	if s.Waited == 0 {
		return "(no wait)"
	}
	gc := ", API servers' heaps collected"
	if !s.Collected {
		gc = ", API servers' heaps NOT collected"
	}
	if !s.Quiet {
		return fmt.Sprintf("UNSETTLED: control plane %s still %.1f %% of a core after %.0f s%s",
			s.Busiest, 100*s.Busy, s.Waited.Seconds(), gc)
	}
	return fmt.Sprintf("settled after %.1f s (busiest control plane %.1f %% of a core)%s", s.Waited.Seconds(), 100*s.Busy, gc)
}

// mark follows a figure timed on an unsettled cluster, so it is never
// reported as if it were not.
func (s settled) mark() string {
	if s.Waited > 0 && (!s.Quiet || !s.Collected) {
		return " (unsettled)"
	}
	return ""
}

// controlPlane is the processes of one cluster that serve the board.
type controlPlane struct {
	name string
	pids []int
	// clock, when set, is read instead of the pids' CPU: the rule's tests
	// script a busy or idle control plane that a loaded machine cannot
	// starve of CPU.
	clock func() time.Duration
}

func (c controlPlane) cpu() time.Duration {
	if c.clock != nil {
		return c.clock()
	}
	var sum time.Duration
	for _, pid := range c.pids {
		sum += processCPU(pid)
	}
	return sum
}

func controlPlanes(clusters []*testcluster.Cluster) []controlPlane {
	planes := make([]controlPlane, 0, len(clusters))
	for i, c := range clusters {
		planes = append(planes, controlPlane{name: fmt.Sprintf("c%d", i+1), pids: []int{c.APIServerPID(), c.EtcdPID()}})
	}
	return planes
}

// wait reads the control planes' CPU window after window until every one
// is under the rule's share of a core, or maxWait has passed.
func (r settleRule) wait(planes []controlPlane) settled {
	begin := time.Now()
	for {
		before := make([]time.Duration, len(planes))
		for i, p := range planes {
			before[i] = p.cpu()
		}
		time.Sleep(r.window)
		s := settled{Quiet: true}
		for i, p := range planes {
			share := (p.cpu() - before[i]).Seconds() / r.window.Seconds()
			if share >= s.Busy {
				s.Busy, s.Busiest = share, p.name
			}
			if share >= r.busy {
				s.Quiet = false
			}
		}
		s.Waited = time.Since(begin)
		if s.Quiet || s.Waited >= r.maxWait {
			return s
		}
	}
}

// busyUntil is a control plane that uses one whole core until stop (wall
// time elapsed), then none.
func busyUntil(stop time.Time) controlPlane {
	begin := time.Now()
	return controlPlane{name: "scripted", clock: func() time.Duration {
		now := time.Now()
		if now.After(stop) {
			now = stop
		}
		return now.Sub(begin)
	}}
}

func TestSettleWaitsUntilTheControlPlaneIsQuiet(t *testing.T) {
	rule := settleRule{window: 200 * time.Millisecond, busy: 0.2, maxWait: 10 * time.Second}
	s := rule.wait([]controlPlane{busyUntil(time.Now().Add(time.Second))})
	if !s.Quiet {
		t.Fatalf("quiet after the busy second: got %+v", s)
	}
	if s.Waited < time.Second || s.Waited > 5*time.Second {
		t.Errorf("waited %s: want from the end of the busy second to a window or two after it", s.Waited)
	}
}

func TestSettleMarksAStartTimedOnABusyControlPlane(t *testing.T) {
	rule := settleRule{window: 200 * time.Millisecond, busy: 0.2, maxWait: 700 * time.Millisecond}
	s := rule.wait([]controlPlane{busyUntil(time.Now().Add(time.Hour))})
	s.Collected = true
	if s.Quiet || s.Waited < rule.maxWait || s.Busy < rule.busy {
		t.Fatalf("busy all along: got %+v", s)
	}
	if s.mark() != " (unsettled)" || !strings.HasPrefix(s.String(), "UNSETTLED") {
		t.Errorf("the figure is not marked: mark %q, %q", s.mark(), s)
	}
}

// TestProcessCPUCountsThisProcess: the reading the rule uses (/proc) grows
// by the CPU this process spends, as getrusage counts it.
func TestProcessCPUCountsThisProcess(t *testing.T) {
	before, spent := processCPU(os.Getpid()), rusageCPU(t)
	for rusageCPU(t)-spent < 300*time.Millisecond {
	}
	if got := processCPU(os.Getpid()) - before; got < 250*time.Millisecond {
		t.Fatalf("this process spun 300 ms of CPU; /proc says %s", got)
	}
}

// TestGrownRatioMarksAnUnsettledFirstStart: each ratio of a later start's
// figure to the first start's (time and CPU grown, one cluster alone)
// carries the mark of the first start's unsettled fleet too.
func TestGrownRatioMarksAnUnsettledFirstStart(t *testing.T) {
	quiet := settled{Waited: time.Second, Quiet: true, Collected: true}
	busy := settled{Waited: time.Minute, Collected: true}
	r := boardResult{Clusters: 1, PerCluster: 10000, GrownTo: 30000, FullBoard: time.Second, GrownFull: 3 * time.Second,
		OneClusterFull: time.Second, OneClusterCPU: startCPU{Board: time.Second, Settle: quiet},
		Start:      startCPU{Board: time.Second, APIServers: time.Second, Settle: busy},
		GrownStart: startCPU{Board: 3 * time.Second, APIServers: 3 * time.Second, Settle: quiet}}
	lines := strings.Split(r.table(), "\n")
	for _, ratio := range []string{"one cluster alone → full board", "grown to 30000", "its CPU against the start's"} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, ratio) })
		if i < 0 {
			t.Fatalf("no %q row in:\n%s", ratio, r.table())
		}
		if !strings.Contains(lines[i], "(unsettled)") {
			t.Errorf("the ratio to an unsettled start is not marked: %q", lines[i])
		}
	}
}

func rusageCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
