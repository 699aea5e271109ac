package kube

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// A namespace's labels changing in one cluster rebuilds that namespace's
// rows of that cluster only: never every row of every cluster (at 5 × 5,000
// Apps, one slow cluster's late namespace list rebuilt all 25,000).
func TestLiveNamespaceLabelsRebuildOnlyTheirCluster(t *testing.T) {
	a := testcluster.Start(t, testcluster.Options{})
	b := testcluster.Start(t, testcluster.Options{})
	for _, c := range []*testcluster.Cluster{a, b} {
		c.CreateNamespaces("hanzo", "other")
		seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
		seed(t, c, "other", "web", "", "v1.0.0", 1)
	}
	f := startClusters(t, map[string]*testcluster.Cluster{"a": a, "b": b})
	must(t, f.WaitSynced(ctxT(t)))
	rows := []model.Key{
		{Cluster: "a", Namespace: "hanzo", Name: "iam"}, {Cluster: "a", Namespace: "other", Name: "web"},
		{Cluster: "b", Namespace: "hanzo", Name: "iam"}, {Cluster: "b", Namespace: "other", Name: "web"},
	}
	waitFor(t, f, "every row built from synced caches", func(s *store.Snapshot) bool {
		for _, k := range rows {
			if r := findRow(s, k); r == nil || r.Workload.Pending != "" {
				return false
			}
		}
		return true
	})
	f.Snapshot() // nothing is left to rebuild

	_, err := a.AdminClient().CoreV1().Namespaces().Patch(ctxT(t), "hanzo", types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"hanzo.ai/org":"renamed"}}}`), metav1.PatchOptions{})
	must(t, err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		f.mu.Lock()
		_, marked := f.dirty[rows[0]]
		dirty, all := len(f.dirty), f.allDirty
		others := []bool{}
		for _, k := range rows[1:] {
			_, d := f.dirty[k]
			others = append(others, d)
		}
		f.mu.Unlock()
		if all {
			t.Fatal("a namespace label in cluster a marked every row of every cluster to be rebuilt")
		}
		if marked {
			for i, d := range others {
				if d {
					t.Errorf("row %v marked to be rebuilt by a label of a/hanzo", rows[i+1])
				}
			}
			if dirty != 1 {
				t.Errorf("%d rows marked, want 1 (a/hanzo/iam)", dirty)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the label change never marked a/hanzo/iam to be rebuilt")
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, f, "the new label on its row", func(s *store.Snapshot) bool {
		r := findRow(s, rows[0])
		return r != nil && r.Org == "renamed"
	})
}
