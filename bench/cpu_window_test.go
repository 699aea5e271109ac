package bench

import (
	"fmt"
	"time"

	"github.com/hanzoai/driftboard/internal/testcluster"
)

// startCPU is where the CPU went while the board started: its own, the
// API servers' (they stream the lists on the same machine), and the whole
// machine's — with several API servers on few cores, the start is bound by
// the machine, not by the board.
type startCPU struct {
	Board, APIServers, Machine time.Duration
	CPUs                       int
	Wall                       time.Duration
}

func (c startCPU) String() string {
	if c.CPUs == 0 || c.Wall == 0 {
		return "(not measured)"
	}
	busy := c.Machine.Seconds() / (c.Wall.Seconds() * float64(c.CPUs))
	return fmt.Sprintf("board %.2f s, API servers %.2f s; machine %.0f %% busy", c.Board.Seconds(), c.APIServers.Seconds(), 100*busy)
}

// cpuWindow reads the API servers' and the machine's CPU from a start.
type cpuWindow struct {
	apiPIDs    []int
	api0, all0 time.Duration
	begin      time.Time
}

func startCPUWindow(clusters []*testcluster.Cluster) *cpuWindow {
	w := &cpuWindow{begin: time.Now()}
	for _, c := range clusters {
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
	c := startCPU{Board: processCPU(board), Wall: time.Since(w.begin)}
	for _, p := range w.apiPIDs {
		c.APIServers += processCPU(p)
	}
	c.APIServers -= w.api0
	all, cpus := machineCPU()
	c.Machine, c.CPUs = all-w.all0, cpus
	return c
}
