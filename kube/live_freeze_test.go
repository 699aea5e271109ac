package kube

import (
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// A frozen API server (SIGSTOP: connections stay open, nothing flows) is not
// live: within 45 s the cluster is unresponsive and its rows stale; after
// SIGCONT it is live again by itself, and a change made meanwhile arrives.
func TestLiveFrozenAPIServerIsUnresponsive(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seeded", func(r *model.AppView) bool { return r != nil && !r.Offline })

	resume := c.FreezeAPIServer()
	frozen := time.Now()

	deadline := frozen.Add(45 * time.Second)
	for {
		s := f.Snapshot()
		if len(s.Clusters) == 1 && s.Clusters[0].Phase == model.ConnUnresponsive {
			if r := findRow(s, iam); r == nil || !r.Offline {
				t.Fatalf("cluster unresponsive but the row is not offline: %+v", r)
			}
			t.Logf("unresponsive %s after the freeze: %s", time.Since(frozen).Round(time.Second), s.Clusters[0].Reason)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("45 s after SIGSTOP the cluster is still %q", s.Clusters[0].Phase)
		}
		select {
		case <-f.Changed():
		case <-time.After(time.Second):
		}
	}

	resume()
	patchApp(t, c, "hanzo", "iam", `{"spec":{"image":{"tag":"v1.1.0"}}}`)
	waitRow(t, f, iam, "live again with the change", func(r *model.AppView) bool { return r != nil && !r.Offline && r.DeclaredTag == "v1.1.0" })
	waitCluster(t, f, "live again", func(st model.ClusterState, _ *store.Snapshot) bool { return st.Phase == model.ConnLive })
}
