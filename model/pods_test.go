package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPodProblemsNameReasonAndPods(t *testing.T) {
	t.Parallel()
	w := baseWorkload()
	w.ReadyReplicas, w.UpdatedReplicas = 2, 1
	w.FailingPods = []PodFailure{
		{Pod: "iam-7d9f-x3", Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container"},
		{Pod: "iam-7d9f-x2", Reason: "CrashLoopBackOff", Message: "back-off 20s restarting failed container"},
		{Pod: "iam-7d9f-x4", Reason: "CrashLoopBackOff"},
		{Pod: "iam-7d9f-y1", Reason: OOMKilledReason},
	}
	v := Build(baseApp(), w, foundRelease(), t0)
	var got []Problem
	for _, p := range v.Problems {
		if p.Kind == ProblemPodsFailing {
			got = append(got, p)
		}
	}
	want := []Problem{
		{Kind: ProblemPodsFailing, Reason: "CrashLoopBackOff", Pods: []string{"iam-7d9f-x2", "iam-7d9f-x3", "iam-7d9f-x4"}, Count: 3,
			Text: "CrashLoopBackOff: iam-7d9f-x2 (+2) — back-off 20s restarting failed container"},
		{Kind: ProblemPodsFailing, Reason: OOMKilledReason, Pods: []string{"iam-7d9f-y1"}, Count: 1, Text: "OOMKilled: iam-7d9f-y1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("pod problems (-want +got):\n%s", diff)
	}
	if l := got[0].Label(); l != "CrashLoopBackOff: iam-7d9f-x2 (+2)" {
		t.Errorf("label: %q", l)
	}
	if v.Workload.Rollout != RolloutStuck || v.Workload.Message != "CrashLoopBackOff: iam-7d9f-x2 (+2); OOMKilled: iam-7d9f-y1" {
		t.Errorf("rollout %s %q: failing new pods make it stuck, named", v.Workload.Rollout, v.Workload.Message)
	}
	js, err := json.Marshal(got[0])
	if err != nil || !strings.Contains(string(js), `"reason":"CrashLoopBackOff","pods":["iam-7d9f-x2","iam-7d9f-x3","iam-7d9f-x4"],"count":3`) {
		t.Errorf("JSON: %s %v", js, err)
	}
}

func TestPodProblemsCapNamedPods(t *testing.T) {
	t.Parallel()
	w := baseWorkload()
	w.ReadyReplicas = 0
	for i := range 12 {
		w.FailingPods = append(w.FailingPods, PodFailure{Pod: fmt.Sprintf("iam-%02d", i), Reason: "ErrImagePull"})
	}
	v := Build(baseApp(), w, foundRelease(), t0)
	p := v.Problems[len(v.Problems)-1]
	if len(p.Pods) != maxNamedPods || p.Count != 12 || p.Label() != "ErrImagePull: iam-00 (+11)" {
		t.Errorf("capped: %d pods, count %d, label %q", len(p.Pods), p.Count, p.Label())
	}
}

// After a finished rollout, crash-looping pods are a health problem: the
// rollout stays complete and the row still names them.
func TestPodProblemsAfterRolloutAreHealth(t *testing.T) {
	t.Parallel()
	w := baseWorkload()
	w.ReadyReplicas = 1
	w.Conditions = []Condition{{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable"}}
	w.FailingPods = []PodFailure{{Pod: "iam-x", Reason: "CrashLoopBackOff"}}
	v := Build(baseApp(), w, foundRelease(), t0)
	if v.Workload.Rollout != RolloutComplete || !v.HasProblem(ProblemPodsFailing) || v.Health != HealthYellow {
		t.Errorf("rollout %s, problems %v, health %s", v.Workload.Rollout, v.Problems, v.Health)
	}
}

func TestWantsPodWatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		wl   func() *Workload
		want bool
	}{
		{"healthy", baseWorkload, false},
		{"no workload", func() *Workload { return nil }, false},
		{"unready", func() *Workload { w := baseWorkload(); w.ReadyReplicas = 1; return w }, true},
		{"rolling out", func() *Workload { w := baseWorkload(); w.UpdatedReplicas = 1; return w }, true},
		{"spec not observed", func() *Workload { w := baseWorkload(); w.Generation = 4; return w }, true},
		{"scaled to zero", func() *Workload {
			w := baseWorkload()
			w.Replicas, w.ReadyReplicas, w.UpdatedReplicas, w.AvailableReplicas = ptr(int32(0)), 0, 0, 0
			return w
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := Build(baseApp(), tt.wl(), foundRelease(), t0)
			if got := v.WantsPodWatch(); got != tt.want {
				t.Errorf("WantsPodWatch = %v, want %v (health %s, rollout %s)", got, tt.want, v.Health, v.Workload.Rollout)
			}
		})
	}
}
