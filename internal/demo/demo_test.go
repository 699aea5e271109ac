package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// startDemo starts a demo for a test and waits for a full snapshot.
func startDemo(t *testing.T, opts Options) (*Demo, *store.Snapshot) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { cancel(); d.Stop() })
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	if err := d.Fleet().WaitSynced(wctx); err != nil {
		t.Fatalf("WaitSynced: %v", err)
	}
	want := len(d.sim.plan.apps) + chartServices*len(clusterNames)
	snap := waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool { return s.Len() == want },
		fmt.Sprintf("%d rows", want))
	return d, snap
}

// waitSnapshot polls the Fleet's snapshots (on its change signal) until ok.
func waitSnapshot(t *testing.T, d *Demo, timeout time.Duration, ok func(*store.Snapshot) bool, what string) *store.Snapshot {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s := d.Fleet().Snapshot()
		if ok(s) {
			return s
		}
		select {
		case <-deadline:
			t.Fatalf("timed out after %v waiting for %s (last snapshot: %d rows)", timeout, what, s.Len())
		case <-d.Fleet().Changed():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func findRow(s *store.Snapshot, k model.Key) *model.AppView {
	for _, r := range s.Rows() {
		if r.Key() == k {
			return r
		}
	}
	return nil
}

func TestFleetShowsEveryDriftKindAndReleaseState(t *testing.T) {
	_, snap := startDemo(t, Options{Seed: 7, Speed: 4})
	if n := snap.Len(); n < 140 || n > 160 {
		t.Errorf("rows = %d, want about 150", n)
	}
	kinds := map[drift.DriftKind]int{}
	states := map[model.ReleaseState]int{}
	health := map[model.Health]int{}
	rollouts := map[model.RolloutState]int{}
	namespaces := map[string]int{}
	clusters := map[string]int{}
	crKinds := map[string]int{}
	var problems []string
	for _, r := range snap.Rows() {
		for _, f := range r.Drift.Flags {
			kinds[f.Kind]++
		}
		states[r.Release.State]++
		health[r.Health]++
		rollouts[r.Workload.Rollout]++
		namespaces[r.Namespace]++
		clusters[r.Cluster]++
		crKinds[r.Kind]++
		for _, p := range r.Problems {
			problems = append(problems, p.Text)
		}
		if r.Offline {
			t.Errorf("row %s is stale on a live demo cluster", r.Key())
		}
	}
	t.Logf("%d rows; drift kinds %v; release states %v; health %v; rollouts %v; severities %v",
		snap.Len(), kinds, states, health, rollouts, snap.Summary.ByDrift)
	for _, k := range drift.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no row shows drift kind %s (kinds seen: %v)", k, kinds)
		}
	}
	for _, st := range []model.ReleaseState{model.ReleaseFound, model.ReleaseNone, model.ReleasePending, model.ReleaseRateLimited, model.ReleaseError} {
		if states[st] == 0 {
			t.Errorf("no row has release state %s (states seen: %v)", st, states)
		}
	}
	for _, h := range []model.Health{model.HealthGreen, model.HealthYellow, model.HealthRed, model.HealthUnknown} {
		if health[h] == 0 {
			t.Errorf("no row has health %q (seen: %v)", h, health)
		}
	}
	for _, ro := range []model.RolloutState{model.RolloutComplete, model.RolloutStuck, model.RolloutPaused} {
		if rollouts[ro] == 0 {
			t.Errorf("no row has rollout %q (seen: %v)", ro, rollouts)
		}
	}
	for _, ns := range namespaceOrder {
		if namespaces[ns] == 0 {
			t.Errorf("no row in namespace %s", ns)
		}
	}
	if crKinds["App"] == 0 || crKinds["Service"] == 0 {
		t.Errorf("rows per kind = %v, want Apps and a Service", crKinds)
	}
	if clusters["demo"] == 0 || clusters["demo-eu"] == 0 {
		t.Errorf("rows per cluster = %v, want both demo and demo-eu", clusters)
	}
	joined := strings.Join(problems, "\n")
	for _, want := range []string{"not found", "not owned by the App", "spec.image", "spec.replicas"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no row problem mentions %q; problems:\n%s", want, joined)
		}
	}
	stuck := findRow(snap, model.Key{Cluster: "demo", Namespace: "hanzo", Name: "search"})
	if stuck == nil || stuck.Workload.Rollout != model.RolloutStuck {
		t.Errorf("hanzo/search should be a stuck rollout, got %+v", stuck)
	}
}

func TestRestartRollsSimulatedPodsToCompletion(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 3, Speed: 20})
	key := model.Key{Cluster: "demo", Namespace: "hanzo", Name: "gateway"}
	before := findRow(d.Fleet().Snapshot(), key)
	row := restartAndWait(t, d, key)
	ctx := context.Background()
	if before != nil && row.Workload.Desired != before.Workload.Desired {
		t.Errorf("desired replicas changed from %d to %d", before.Workload.Desired, row.Workload.Desired)
	}
	// The simulated pods really rolled: every pod now belongs to the new ReplicaSet.
	pods, err := d.sim.clusters["demo"].kube.CoreV1().Pods("hanzo").List(ctx, listFor("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	dep, err := d.sim.clusters["demo"].kube.AppsV1().Deployments("hanzo").Get(ctx, "gateway", getOpts)
	if err != nil {
		t.Fatal(err)
	}
	hash := templateHash(dep.Spec.Template)
	if len(pods.Items) != int(*dep.Spec.Replicas) {
		t.Errorf("%d gateway pods, want %d", len(pods.Items), *dep.Spec.Replicas)
	}
	for _, p := range pods.Items {
		if p.Labels["pod-template-hash"] != hash {
			t.Errorf("pod %s runs template %s, want the restarted template %s", p.Name, p.Labels["pod-template-hash"], hash)
		}
	}
}

// restartAndWait restarts key as the SuperAdmin and waits until the row was
// seen progressing and then complete and green.
func restartAndWait(t *testing.T, d *Demo, key model.Key) *model.AppView {
	t.Helper()
	ctx := context.Background()
	if dec := d.Fleet().CheckRestart(ctx, key); !dec.Allowed {
		t.Fatalf("CheckRestart %s as SuperAdmin refused: %s", key, dec.Reason)
	}
	if err := d.Fleet().Restart(ctx, key); err != nil {
		t.Fatalf("Restart %s: %v", key, err)
	}
	sawProgress := false
	row := findRow(waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool {
		r := findRow(s, key)
		if r == nil {
			return false
		}
		if r.Workload.Rollout == model.RolloutProgressing {
			sawProgress = true
		}
		return sawProgress && r.Workload.Rollout == model.RolloutComplete && r.Health == model.HealthGreen
	}, "the restart of "+key.String()+" to progress and complete"), key)
	if row.Workload.RestartedBy != "oidc:ops@hanzo.ai" || row.Workload.RestartedAt == "" {
		t.Errorf("%s: restartedBy/At = %q/%q, want the API server's user oidc:ops@hanzo.ai and a time", key, row.Workload.RestartedBy, row.Workload.RestartedAt)
	}
	return row
}

func TestRestartRollsStatefulSet(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 3, Speed: 20})
	key := model.Key{Cluster: "demo", Namespace: "hanzo", Name: "sql"}
	row := restartAndWait(t, d, key)
	if row.Workload.Kind != model.KindStatefulSet || row.Workload.Desired != 3 {
		t.Errorf("hanzo/sql: %s with %d replicas, want a StatefulSet of 3", row.Workload.Kind, row.Workload.Desired)
	}
	st, err := d.sim.clusters["demo"].kube.AppsV1().StatefulSets("hanzo").Get(context.Background(), "sql", getOpts)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status.CurrentRevision != st.Status.UpdateRevision || st.Status.UpdatedReplicas != 3 {
		t.Errorf("statefulset status after the restart: %+v", st.Status)
	}
}

func TestIdentitiesAndRBAC(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 1, Speed: 2})
	ctx := context.Background()
	if got := d.Principal().RoleName(); got != "SuperAdmin" {
		t.Fatalf("first identity = %s, want SuperAdmin", got)
	}
	check := func(ns, name string) model.Decision {
		return d.Fleet().CheckRestart(ctx, model.Key{Cluster: "demo", Namespace: ns, Name: name})
	}
	if dec := check("tenant-lux", "kms"); dec.Allowed || !strings.Contains(dec.Reason, "RBAC") {
		t.Errorf("SuperAdmin in %s: %+v, want an RBAC denial", rbacDeniedNamespace, dec)
	}
	if dec := check("hanzo", "analytics"); dec.Allowed || !strings.Contains(dec.Reason, "paused") {
		t.Errorf("paused Deployment: %+v, want refused as paused", dec)
	}
	if dec := check("hanzo", "ingress"); dec.Allowed {
		t.Errorf("ingress App without workload: %+v, want refused", dec)
	}
	p := d.SwitchIdentity()
	if p.RoleName() != "OrgAdmin of acme" || d.Principal().Email != "dana@acme.dev" {
		t.Fatalf("switched identity = %s %s, want OrgAdmin of acme", p.Email, p.RoleName())
	}
	if !d.Expiry().After(time.Now().Add(50 * time.Minute)) {
		t.Errorf("switched identity expires %v, want a fresh token", d.Expiry())
	}
	if dec := check("hanzo", "iam"); dec.Allowed {
		t.Errorf("OrgAdmin of acme on hanzo/iam: allowed, want refused")
	}
	if dec := check("tenant-acme", "api"); !dec.Allowed {
		t.Errorf("OrgAdmin of acme on tenant-acme/api: %s", dec.Reason)
	}
}
