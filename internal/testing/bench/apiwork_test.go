package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// apiWork counts work an API server does on its own that can fall inside a
// timed start and cost CPU the board did not ask for:
//   - garbage collections: a cycle marks the whole live heap (~0.6–0.8 GB
//     at 10,000 Apps), and whether one falls inside a start depends on how
//     far the start's allocations take the heap past its goal;
//   - the watch cache's consistency checks of the fleet's kinds: every 5 to
//     7.5 minutes per resource the API server lists it from etcd and from
//     its cache and compares them (0.4 s of CPU for 9,000 Deployments).
//
// Either one inside a start makes its API server CPU look dearer than the
// board's requests made it.
type apiWork struct {
	GCs    int // garbage collection cycles
	Checks int // consistency checks of hanzo.ai/apps, apps/deployments, apps/replicasets
	Known  bool
}

// fleetResources are the kinds whose consistency check lists the whole fleet.
var fleetResources = map[string]bool{"hanzo.ai/apps": true, "apps/deployments": true, "apps/replicasets": true}

// readAPIWork reads the counters from each API server's /metrics; unknown
// (Known false) when any cannot be read.
func readAPIWork(clusters []*testcluster.Cluster) apiWork {
	sum := apiWork{Known: true}
	for _, c := range clusters {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		raw, err := c.AdminClient().Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
		cancel()
		if err != nil {
			return apiWork{}
		}
		w := parseAPIWork(raw)
		if !w.Known {
			return apiWork{}
		}
		sum.GCs += w.GCs
		sum.Checks += w.Checks
	}
	return sum
}

// parseAPIWork reads Go's GC cycle count and the consistency checks of the
// fleet's kinds from Prometheus text; Known is false without the GC count.
func parseAPIWork(raw []byte) apiWork {
	var w apiWork
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "go_gc_duration_seconds_count "):
			if n, ok := counterValue(line); ok {
				w.GCs, w.Known = n, true
			}
		case strings.HasPrefix(line, "apiserver_storage_consistency_checks_total{"):
			if fleetResources[label(line, "group")+"/"+label(line, "resource")] {
				if n, ok := counterValue(line); ok {
					w.Checks += n
				}
			}
		}
	}
	return w
}

func counterValue(line string) (int, bool) {
	f := strings.Fields(line)
	v, err := strconv.ParseFloat(f[len(f)-1], 64)
	return int(v), err == nil
}

// label is a label's value in a metric line ("" when absent).
func label(line, name string) string {
	_, rest, ok := strings.Cut(line, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// since is what happened between two readings.
func (w apiWork) since(before apiWork) apiWork {
	if !w.Known || !before.Known {
		return apiWork{}
	}
	return apiWork{GCs: w.GCs - before.GCs, Checks: w.Checks - before.Checks, Known: true}
}

func (w apiWork) String() string {
	if !w.Known {
		return "the API servers' GC cycles and consistency checks not read"
	}
	return fmt.Sprintf("the API servers ran %d GC cycle(s) and %d consistency check(s) of the fleet's kinds", w.GCs, w.Checks)
}
