package demo

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

func TestScriptedEventsHappen(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 5, Speed: 100, Apps: 40})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		j := strings.Join(d.Journal(), "\n")
		if strings.Contains(j, "GitHub:") && strings.Contains(j, "git:") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no release and no git bump after 20 s at speed 100; journal:\n%s", strings.Join(d.Journal(), "\n"))
}

func TestNoGoroutinesLeftAfterStop(t *testing.T) {
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := Start(ctx, Options{Seed: 9, Speed: 50, Apps: 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Fleet().WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	d.Fleet().Snapshot()
	d.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+1 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after Stop, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var getOpts = metav1.GetOptions{}

func listFor(app string) metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=" + app}
}

func TestRestartFixesDegradedDeployment(t *testing.T) {
	d, snap := startDemo(t, Options{Seed: 7, Speed: 20})
	key := model.Key{Cluster: "demo", Namespace: "tenant-acme", Name: "api"}
	if r := findRow(snap, key); r == nil || r.Health != model.HealthYellow {
		t.Fatalf("tenant-acme/api should start yellow (one pod crash-looping): %+v", r)
	}
	if err := d.Fleet().Restart(context.Background(), key); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool {
		r := findRow(s, key)
		return r != nil && r.Health == model.HealthGreen && r.Workload.Rollout == model.RolloutComplete && r.Workload.RestartedBy != ""
	}, "tenant-acme/api to roll to green")
}

func TestGitBumpRollsOutThroughTheOperator(t *testing.T) {
	d, _ := startDemo(t, Options{Seed: 7, Speed: 20})
	key := model.Key{Cluster: "demo", Namespace: "hanzo", Name: "console"}
	// console starts mid-rollout (its App tag was just bumped): let it finish.
	waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool {
		r := findRow(s, key)
		return r != nil && r.Workload.Rollout == model.RolloutComplete && r.RunningTag == r.DeclaredTag
	}, "console's first rollout")
	d.rel.mu.Lock() // the simulator may be publishing a release
	target := d.rel.repos["hanzoai/console"].previous(2)
	d.rel.mu.Unlock()
	ri := d.sim.clusters["demo"].dyn.Resource(appsGVR).Namespace("hanzo")
	u, err := ri.Get(context.Background(), "console", getOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(u.Object, target, "spec", "image", "tag"); err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Update(context.Background(), u, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	sawUnrolled := false
	waitSnapshot(t, d, 30*time.Second, func(s *store.Snapshot) bool {
		r := findRow(s, key)
		if r == nil {
			return false
		}
		for _, f := range r.Drift.Flags {
			sawUnrolled = sawUnrolled || f.Kind == drift.DriftUnrolled
		}
		return sawUnrolled && r.RunningTag == target && r.Workload.Rollout == model.RolloutComplete
	}, "console to show un-rolled, then run "+target)
}
