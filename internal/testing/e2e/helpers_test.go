package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

const clusterName = "e2e"

func key(ns, name string) model.Key {
	return model.Key{Cluster: clusterName, Namespace: ns, Name: name}
}

// startFleet runs a Fleet as cfg's identity until the test ends and waits
// until it has synced.
func startFleet(t *testing.T, cfg *rest.Config, opts kube.FleetOptions) *kube.Fleet {
	t.Helper()
	cc, err := kube.NewClusterClients(clusterName, cfg, kube.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := kube.NewFleet(opts, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	wctx, wcancel := context.WithTimeout(ctx, 90*time.Second)
	defer wcancel()
	if err := f.WaitSynced(wctx); err != nil {
		t.Fatalf("WaitSynced: %v", err)
	}
	return f
}

// waitBoard waits on the fleet's change signal (re-checking every 250 ms in
// case another reader took it) until ok accepts a snapshot, and returns it.
// On timeout it fails with describe(last snapshot).
func waitBoard(t *testing.T, f *kube.Fleet, timeout time.Duration, what string, ok func(*store.Snapshot) bool) *store.Snapshot {
	t.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		snap := f.Snapshot()
		if ok(snap) {
			return snap
		}
		select {
		case <-f.Changed():
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out after %s waiting for %s; last board: %s", timeout, what, describe(snap))
		}
	}
}

func describe(s *store.Snapshot) string {
	var cl []string
	for _, c := range s.Clusters {
		cl = append(cl, fmt.Sprintf("%s %s since %s (%s)", c.Name, c.Phase, c.Since.Format(time.TimeOnly), c.Reason))
	}
	stale := 0
	for _, r := range s.Rows() {
		if r.Offline {
			stale++
		}
	}
	return fmt.Sprintf("%d rows (%d stale), clusters [%s]", s.Len(), stale, strings.Join(cl, "; "))
}

func phaseOf(s *store.Snapshot) model.ConnPhase {
	for _, c := range s.Clusters {
		if c.Name == clusterName {
			return c.Phase
		}
	}
	return ""
}

// fact is what the truth and the board must agree on for one App.
type fact struct {
	DeclaredTag   string
	WorkloadFound bool
	WorkloadTag   string
}

// truth is a fresh LIST of Apps and Deployments, as facts by row key.
func truth(t *testing.T, c *testcluster.Cluster) map[model.Key]fact {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	apps, err := c.AdminDynamic().Resource(testcluster.AppsGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("fresh list of apps: %v", err)
	}
	deps, err := c.AdminClient().AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("fresh list of deployments: %v", err)
	}
	tags := map[model.Key]string{}
	for _, d := range deps.Items {
		img := d.Spec.Template.Spec.Containers[0].Image
		tags[key(d.Namespace, d.Name)] = img[strings.LastIndex(img, ":")+1:]
	}
	out := map[model.Key]fact{}
	for _, a := range apps.Items {
		k := key(a.GetNamespace(), a.GetName())
		if _, dup := out[k]; dup {
			t.Fatalf("the API server listed %s twice", k)
		}
		tag, _, _ := unstructured.NestedString(a.Object, "spec", "image", "tag")
		wtag, found := tags[k]
		out[k] = fact{DeclaredTag: tag, WorkloadFound: found, WorkloadTag: wtag}
	}
	return out
}

// boardFacts are the same facts read from a snapshot; a key seen twice is
// reported as a duplicate.
func boardFacts(s *store.Snapshot) (map[model.Key]fact, []model.Key) {
	out := map[model.Key]fact{}
	var dups []model.Key
	for _, r := range s.Rows() {
		if _, dup := out[r.Key()]; dup {
			dups = append(dups, r.Key())
		}
		out[r.Key()] = fact{DeclaredTag: r.DeclaredTag, WorkloadFound: r.Workload.Found, WorkloadTag: r.Workload.SpecTag}
	}
	return out, dups
}

// factsDiff lists the keys on which the board and the truth disagree.
func factsDiff(want, got map[model.Key]fact) []string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s: missing from the board (want %+v)", k, w))
		} else if g != w {
			out = append(out, fmt.Sprintf("%s: board %+v, truth %+v", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s: on the board (%+v) but not in the API", k, g))
		}
	}
	sort.Strings(out)
	return out
}

// converged reports whether the board is live, has no stale row, no
// duplicate, and equals the truth.
func converged(want map[model.Key]fact) func(*store.Snapshot) bool {
	return func(s *store.Snapshot) bool {
		if phaseOf(s) != model.ConnLive {
			return false
		}
		for _, r := range s.Rows() {
			if r.Offline {
				return false
			}
		}
		got, dups := boardFacts(s)
		return len(dups) == 0 && len(factsDiff(want, got)) == 0
	}
}

// assertConverged waits until the board equals a fresh list, re-reading the
// truth while it waits (changes may still be landing).
func assertConverged(t *testing.T, c *testcluster.Cluster, f *kube.Fleet, timeout time.Duration) *store.Snapshot {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		want := truth(t, c)
		snap := f.Snapshot()
		if converged(want)(snap) {
			return snap
		}
		if time.Now().After(deadline) {
			got, dups := boardFacts(snap)
			diff := factsDiff(want, got)
			if len(diff) > 10 {
				diff = append(diff[:10], fmt.Sprintf("… and %d more", len(diff)-10))
			}
			t.Fatalf("board did not converge to a fresh list within %s: %s; duplicates %v; differences:\n%s",
				timeout, describe(snap), dups, strings.Join(diff, "\n"))
		}
		select {
		case <-f.Changed():
		case <-time.After(300 * time.Millisecond):
		}
	}
}

func seedApps(t *testing.T, c *testcluster.Cluster, ns string, names []string, tag string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, n := range names {
		if err := c.SeedApp(ctx, ns, n, "service", "ghcr.io/hanzoai/"+n, tag, 1); err != nil {
			t.Fatal(err)
		}
	}
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", prefix, i)
	}
	return out
}
