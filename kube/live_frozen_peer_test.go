package kube

import (
	"context"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// One cluster whose API server is frozen from the start (SIGSTOP: it accepts
// connections and answers nothing) never delays another cluster's rows: the
// live cluster's row is on the board while the frozen one has not synced,
// and the frozen one's rows follow once it answers again.
func TestLiveFrozenClusterNeverDelaysTheOthers(t *testing.T) {
	live := testcluster.Start(t, testcluster.Options{})
	frozen := testcluster.Start(t, testcluster.Options{})
	for _, c := range []*testcluster.Cluster{live, frozen} {
		c.CreateNamespaces("hanzo")
		seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	}
	// Every thread stopped before the board starts: kill returns while some
	// still run, so under load the board's first requests could be answered
	// (the likely cause of the frozen row this test once saw).
	resume := frozen.FreezeAPIServer()

	f := startClusters(t, map[string]*testcluster.Cluster{"live": live, "frozen": frozen})

	liveRow := model.Key{Cluster: "live", Namespace: "hanzo", Name: "iam"}
	frozenRow := model.Key{Cluster: "frozen", Namespace: "hanzo", Name: "iam"}
	waitFor(t, f, "the live cluster's row while the other is frozen", func(s *store.Snapshot) bool {
		return findRow(s, liveRow) != nil
	})
	// Not only a row seen on the stream: the live cluster's whole sync ends
	// (its row built from complete caches, its workload read) while the
	// other still answers nothing.
	s := waitFor(t, f, "the live cluster synced while the other is frozen", func(s *store.Snapshot) bool {
		r := findRow(s, liveRow)
		return r != nil && r.Workload.Pending == "" && r.Workload.Kind == model.KindDeployment &&
			clusterPhase(s, "live") == model.ConnLive
	})
	if r := findRow(s, frozenRow); r != nil {
		t.Fatalf("a row of the frozen cluster is on the board: %+v", r)
	}
	for _, c := range s.Clusters {
		if c.Name == "frozen" && c.Phase == model.ConnLive {
			t.Fatalf("the frozen cluster is said to be live: %+v", c)
		}
	}

	resume()
	waitFor(t, f, "the frozen cluster's row once it answers", func(s *store.Snapshot) bool {
		r := findRow(s, frozenRow)
		return r != nil && !r.Offline && findRow(s, liveRow) != nil
	})
}

// startClusters runs one Fleet of the named clusters until the test ends.
func startClusters(t *testing.T, clusters map[string]*testcluster.Cluster) *Fleet {
	t.Helper()
	var clients []ClusterClients
	for name, c := range clusters {
		cc, err := NewClusterClients(name, c.AdminConfig(), ConnectOptions{})
		must(t, err)
		clients = append(clients, cc)
	}
	f := NewFleet(FleetOptions{}, clients...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	return f
}

func clusterPhase(s *store.Snapshot, name string) model.ConnPhase {
	for _, c := range s.Clusters {
		if c.Name == name {
			return c.Phase
		}
	}
	return ""
}
