package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// startCPU is where the CPU went while the board started: its own, the
// API servers' (they stream the lists on the same machine), and the whole
// machine's — with several API servers on few cores, the start is bound by
// the machine, not by the board.
type startCPU struct {
	Board, APIServers, Machine time.Duration
	CPUs                       int
	Wall                       time.Duration
	Settle                     settled // the wait for a quiet fleet before the start
	Inside                     apiWork // the API servers' own GC cycles and checks during the start
}

func (c startCPU) String() string {
	if c.CPUs == 0 || c.Wall == 0 {
		return "(not measured)"
	}
	busy := c.Machine.Seconds() / (c.Wall.Seconds() * float64(c.CPUs))
	return fmt.Sprintf("board %.2f s, API servers %.2f s; machine %.0f %% busy; before it %s; during it %s",
		c.Board.Seconds(), c.APIServers.Seconds(), 100*busy, c.Settle, c.Inside)
}

// cpuWindow reads the API servers' and the machine's CPU from a start.
type cpuWindow struct {
	measured   []*testcluster.Cluster
	work0      apiWork
	apiPIDs    []int
	api0, all0 time.Duration
	begin      time.Time
	settle     settled
}

// startCPUWindow waits until every control plane of the fleet is quiet
// (startSettle), then starts reading the CPU of the measured clusters' API
// servers and of the machine: call it just before the timed start.
func startCPUWindow(tb testing.TB, what string, f *fleetEnv, measured []*testcluster.Cluster) *cpuWindow {
	tb.Helper()
	settle := settleFleet(tb, what, f)
	w := &cpuWindow{measured: measured, work0: readAPIWork(measured)} // read before the CPU: the scrape is not the start's
	w.begin, w.settle = time.Now(), settle
	for _, c := range measured {
		pid := c.APIServerPID()
		w.apiPIDs = append(w.apiPIDs, pid)
		w.api0 += processCPU(pid)
	}
	w.all0, _ = machineCPU()
	return w
}

// since is the CPU used since the window started; board is the board's pid
// (it started inside the window, so all its CPU counts).
func (w *cpuWindow) since(board int) startCPU {
	c := startCPU{Board: processCPU(board), Wall: time.Since(w.begin), Settle: w.settle}
	for _, p := range w.apiPIDs {
		c.APIServers += processCPU(p)
	}
	c.APIServers -= w.api0
	all, cpus := machineCPU()
	c.Machine, c.CPUs = all-w.all0, cpus
	c.Inside = readAPIWork(w.measured).since(w.work0) // after the CPU, for the same reason
	return c
}
