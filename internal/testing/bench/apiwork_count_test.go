package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// A GC cycle the API server runs inside a timed start is counted, and a
// start whose API server cannot be read says so instead of "0 cycles".
func TestAPIWorkCountsTheAPIServersGCCycles(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Profiling: true})
	clusters := []*testcluster.Cluster{c}
	before := readAPIWork(clusters)
	if !before.Known || before.GCs < 1 {
		t.Fatalf("the API server's counters: got %+v, want its GC count (it has collected since it started)", before)
	}
	for range 2 {
		if err := c.CollectAPIServerGarbage(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got := readAPIWork(clusters).since(before)
	if !got.Known || got.GCs < 2 {
		t.Fatalf("after two forced collections: got %+v (%s), want at least 2 cycles", got, got)
	}
	if !strings.Contains(got.String(), "ran ") {
		t.Errorf("String: %q", got)
	}

	c.StopAPIServer()
	gone := readAPIWork(clusters).since(before)
	if gone.Known {
		t.Fatalf("with the API server stopped: got %+v, want unknown", gone)
	}
	if s := gone.String(); !strings.Contains(s, "not read") {
		t.Errorf("an unread count must say so, got %q", s)
	}
}

// Only the consistency checks of the fleet's kinds count: a check of a
// small kind costs nothing worth naming. (Prometheus text as the API
// server writes it; the parse is a pure conversion.)
func TestAPIWorkCountsOnlyTheFleetsConsistencyChecks(t *testing.T) {
	raw := []byte(`# HELP go_gc_duration_seconds A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.
go_gc_duration_seconds_sum 0.01
go_gc_duration_seconds_count 211
apiserver_storage_consistency_checks_total{group="",resource="configmaps",status="success"} 8
apiserver_storage_consistency_checks_total{group="apps",resource="deployments",status="success"} 7
apiserver_storage_consistency_checks_total{group="apps",resource="daemonsets",status="success"} 8
apiserver_storage_consistency_checks_total{group="apps",resource="replicasets",status="failure"} 1
apiserver_storage_consistency_checks_total{group="hanzo.ai",resource="apps",status="success"} 8
apiserver_storage_consistency_checks_total{group="hanzo.ai",resource="services",status="success"} 5
`)
	got := parseAPIWork(raw)
	if want := (apiWork{GCs: 211, Checks: 16, Known: true}); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if w := parseAPIWork([]byte("apiserver_storage_consistency_checks_total{group=\"apps\",resource=\"deployments\"} 3\n")); w.Known {
		t.Errorf("without Go's GC count the reading is unknown, got %+v", w)
	}
}
