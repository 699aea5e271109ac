package kube

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// startHeldFleet runs a Fleet as cfg's identity whose ReplicaSet lists are
// held by the gate (Apps and Deployments pass), until the test ends.
func startHeldFleet(t *testing.T, cfg *rest.Config, opts FleetOptions) (*Fleet, *listGate) {
	t.Helper()
	g := newListGate(0)
	close(g.apps)
	close(g.deployments)
	cfg.WrapTransport = g.wrap
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	must(t, err)
	f := NewFleet(opts, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	t.Cleanup(g.releaseAll)
	f.Start(ctx)
	return f, g
}

// failedWith waits until the cluster is failed with a reason containing
// every part, and returns when that was seen.
func failedWith(t *testing.T, f *Fleet, parts ...string) time.Time {
	t.Helper()
	waitCluster(t, f, "failed: "+strings.Join(parts, " … "), func(st model.ClusterState, _ *store.Snapshot) bool {
		if st.Phase != model.ConnFailed {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(st.Reason, p) {
				t.Fatalf("failed with %q, want it to say %q", st.Reason, p)
			}
		}
		return true
	})
	return time.Now()
}

// waitSyncedFails checks that WaitSynced returns (it does not wait for the
// sync) and names why.
func waitSyncedFails(t *testing.T, f *Fleet, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.WaitSynced(ctx); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("WaitSynced of a failed cluster: %v, want an error saying %q", err, want)
	}
}

// A ReplicaSet list the access probe allowed, refused on every try after
// (frank's grant revoked between the probe and the list): the cluster is
// failed at once with the server's words, its rows offline, WaitSynced
// returns the reason; granted again, it syncs and is live by itself.
func TestLiveFirstListRefusedFailsTheClusterUntilGranted(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	ctx := ctxT(t)
	roles := c.AdminClient().RbacV1().Roles("hanzo")
	_, err := roles.Create(ctx, rbacRole("hanzo"), metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "frank"), metav1.CreateOptions{})
	must(t, err)

	f, g := startHeldFleet(t, c.UserConfig("frank"), FleetOptions{Namespaces: []string{"hanzo"}})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seen while syncing", func(r *model.AppView) bool { return r != nil })

	setReplicaSetGrant(t, c, false)
	released := time.Now()
	close(g.replicasets)
	at := failedWith(t, f, "listing replicasets in hanzo keeps failing", "forbidden")
	if d := at.Sub(released); d >= DefaultSyncFailAfter {
		t.Errorf("a refused list failed the cluster after %s, want at once (not after the %s bound for retryable errors)", d, DefaultSyncFailAfter)
	}
	if r := findRow(f.Snapshot(), iam); r == nil || !r.Offline {
		t.Errorf("cluster failed, but the row is not offline: %+v", r)
	}
	waitSyncedFails(t, f, "listing replicasets in hanzo keeps failing")

	setReplicaSetGrant(t, c, true)
	waitCluster(t, f, "live once granted", func(st model.ClusterState, _ *store.Snapshot) bool { return st.Phase == model.ConnLive })
	waitRow(t, f, iam, "live again", func(r *model.AppView) bool { return r != nil && !r.Offline && r.RunningTag == "v1.0.0" })
}

// A first list that fails for a reason retrying may cure (the API server
// down: connection refused) is "syncing" with the reason until SyncFailAfter,
// then failed; the server back, the cluster syncs and is live.
func TestLiveFirstListFailingFailsTheClusterAfterTheBound(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	const bound = 4 * time.Second
	f, g := startHeldFleet(t, c.AdminConfig(), FleetOptions{SyncFailAfter: bound})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seen while syncing", func(r *model.AppView) bool { return r != nil })

	c.StopAPIServer()
	stopped := time.Now()
	close(g.replicasets)
	snap := waitCluster(t, f, "syncing with the reason", func(st model.ClusterState, _ *store.Snapshot) bool {
		return st.Phase == model.ConnSyncing && st.Reason != ""
	})
	// Which resource is retried, and the last error seen: the header's words.
	st := snap.Clusters[0]
	what, _, _ := strings.Cut(st.Reason, ": ")
	if !slices.Contains([]string{"apps", "services", "deployments", "statefulsets", "replicasets"}, what) ||
		!strings.Contains(st.Reason, "connection refused") || !strings.Contains(st.SyncingWords(), "— retrying "+st.Reason) {
		t.Errorf("syncing with reason %q (%q), want which resource is retried and the server's error", st.Reason, st.SyncingWords())
	}
	at := failedWith(t, f, "keeps failing (retrying)")
	if d := at.Sub(stopped); d < bound {
		t.Errorf("failed %s after the server stopped, before the %s bound", d, bound)
	}
	if r := findRow(f.Snapshot(), iam); r == nil || !r.Offline {
		t.Errorf("cluster failed, but the row is not offline: %+v", r)
	}
	waitSyncedFails(t, f, "keeps failing")

	c.StartAPIServer()
	waitCluster(t, f, "live once the server is back", func(st model.ClusterState, _ *store.Snapshot) bool { return st.Phase == model.ConnLive })
	waitRow(t, f, iam, "live again", func(r *model.AppView) bool { return r != nil && !r.Offline && r.RunningTag == "v1.0.0" })
}

// setReplicaSetGrant gives or takes frank's grant to list ReplicaSets in
// hanzo, and waits until the API server's authorizer says so.
func setReplicaSetGrant(t *testing.T, c *testcluster.Cluster, granted bool) {
	t.Helper()
	ctx := ctxT(t)
	roles := c.AdminClient().RbacV1().Roles("hanzo")
	role, err := roles.Get(ctx, "board", metav1.GetOptions{})
	must(t, err)
	want := rbacRole("hanzo")
	if !granted {
		for i, r := range want.Rules {
			want.Rules[i].Resources = slices.DeleteFunc(slices.Clone(r.Resources), func(s string) bool { return s == "replicasets" })
		}
	}
	role.Rules = want.Rules
	_, err = roles.Update(ctx, role, metav1.UpdateOptions{})
	must(t, err)
	frank, err := kubernetes.NewForConfig(c.UserConfig("frank"))
	must(t, err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := frank.AppsV1().ReplicaSets("hanzo").List(ctx, metav1.ListOptions{Limit: 1})
		if granted == (err == nil) && (granted || apierrors.IsForbidden(err)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("frank's ReplicaSet grant %v not in effect after 30 s: %v", granted, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// An API server frozen during the first sync (SIGSTOP while the ReplicaSet
// list is on its way: no call fails, nothing arrives) is not "syncing" for
// ever: within 45 s the cluster is unresponsive, its rows offline, and
// WaitSynced returns saying so; resumed, it syncs and is live.
func TestLiveServerFrozenWhileSyncingIsUnresponsive(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	f, g := startHeldFleet(t, c.AdminConfig(), FleetOptions{})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seen while syncing", func(r *model.AppView) bool { return r != nil })

	resume := c.FreezeAPIServer()
	frozen := time.Now()
	close(g.replicasets)
	waitCluster(t, f, "unresponsive while syncing", func(st model.ClusterState, _ *store.Snapshot) bool {
		return st.Phase == model.ConnUnresponsive
	})
	if d := time.Since(frozen); d > 45*time.Second {
		t.Errorf("unresponsive %s after the freeze, want within 45 s", d.Round(time.Second))
	}
	if r := findRow(f.Snapshot(), iam); r == nil || !r.Offline {
		t.Errorf("cluster unresponsive, but the row is not offline: %+v", r)
	}
	waitSyncedFails(t, f, "unresponsive")

	resume()
	waitCluster(t, f, "live once resumed", func(st model.ClusterState, _ *store.Snapshot) bool { return st.Phase == model.ConnLive })
	waitRow(t, f, iam, "live again", func(r *model.AppView) bool { return r != nil && !r.Offline && r.RunningTag == "v1.0.0" })
}
