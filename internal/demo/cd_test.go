package demo

import (
	"context"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// The demo's Hanzo CD: App CRs of the platform's namespaces synced (a few
// stale ones out of sync), tenant Apps not managed, and chart-plane rows
// with no App CR, one of them declaring a tag it has not rolled out.
func TestDemoGitStateAndChartRows(t *testing.T) {
	_, snap := startDemo(t, Options{Seed: 1, Speed: 1})
	states := map[model.GitState]int{}
	charts, unrolledCharts := 0, 0
	for _, r := range snap.Rows() {
		states[r.Git.State]++
		if r.Kind == model.KindChart {
			charts++
			if r.Chart == nil || r.Git.Application == "" || !r.Workload.Found {
				t.Errorf("chart row %s: chart %+v git %+v workload found %v", r.Key(), r.Chart, r.Git, r.Workload.Found)
			}
			for _, f := range r.Drift.Flags {
				if f.Kind == drift.DriftUnrolled {
					unrolledCharts++
				}
			}
		}
		if r.Namespace == "tenant-acme" && r.Git.State != model.GitNotManaged {
			t.Errorf("tenant row %s: git %s, want not-managed", r.Key(), r.Git.State)
		}
	}
	if states[model.GitSynced] == 0 || states[model.GitOutOfSync] == 0 || states[model.GitNotManaged] == 0 || states[model.GitUnknown] != 0 {
		t.Errorf("git states %v: want synced, out-of-sync and not-managed rows, none unknown", states)
	}
	if charts != chartServices*len(clusterNames) || unrolledCharts != len(clusterNames) {
		t.Errorf("%d chart rows (%d un-rolled), want %d (%d)", charts, unrolledCharts, chartServices*len(clusterNames), len(clusterNames))
	}
}

// A chart row's Deployment has pods as an App's does: the detail and get
// read their running digest (the digest of the tag they run), not "no pods"
// beside "1 ready".
func TestDemoChartRowsHavePods(t *testing.T) {
	d, snap := startDemo(t, Options{Seed: 1, Speed: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	charts := 0
	for _, r := range snap.Rows() {
		if r.Kind != model.KindChart {
			continue
		}
		charts++
		read, err := d.Fleet().RunningDigests(ctx, r.Key())
		if err != nil || read.Pods != int(r.Workload.Ready) || read.NoDigest != 0 || len(read.Digests) != 1 {
			t.Errorf("chart row %s (%d ready): pods %+v, %v", r.Key(), r.Workload.Ready, read, err)
			continue
		}
		if want := d.sim.reg.digest(splitImage(r.Registry + ":" + r.RunningTag)); read.Digests[0] != want {
			t.Errorf("chart row %s runs %s: digest %s, want %s", r.Key(), r.RunningTag, read.Digests[0], want)
		}
	}
	if charts == 0 {
		t.Fatal("no chart rows")
	}
}
