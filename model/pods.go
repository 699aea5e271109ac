package model

import (
	"fmt"
	"slices"
	"strings"
)

// PodFailure is one pod of a workload that does not run, and why: a
// container waiting on something other than its start (CrashLoopBackOff,
// ErrImagePull, ImagePullBackOff, CreateContainerConfigError, ...), a last
// termination by the OOM killer, or a pod the scheduler cannot place.
type PodFailure struct {
	Pod     string
	Reason  string
	Message string
}

// OOMKilledReason is the termination reason the kubelet gives a container
// the kernel killed for memory.
const OOMKilledReason = "OOMKilled"

// maxNamedPods caps the pod names a problem carries (JSON and detail).
const maxNamedPods = 10

// WantsPodWatch tells whether the pods of the row's workload are worth
// watching: only while it rolls out or is not ready, so a healthy fleet
// watches no pods at all. A workload scaled to zero has none to watch.
func (v *AppView) WantsPodWatch() bool {
	w := v.Workload
	if !w.Found || w.Desired <= 0 {
		return false
	}
	return v.Health != HealthGreen || w.Rollout != RolloutComplete
}

// addPodProblems adds one problem per reason, naming its pods:
// "CrashLoopBackOff: api-7d9f-x2 (+2)". Reasons come in the order of their
// first pod by name, so the row does not flicker between events.
func addPodProblems(fs []PodFailure, v *AppView) {
	sorted := slices.Clone(fs)
	slices.SortFunc(sorted, func(a, b PodFailure) int { return strings.Compare(a.Pod, b.Pod) })
	var reasons []string
	pods := map[string][]string{}
	first := map[string]string{}
	for _, f := range sorted {
		if _, seen := pods[f.Reason]; !seen {
			reasons = append(reasons, f.Reason)
			first[f.Reason] = f.Message
		}
		if !slices.Contains(pods[f.Reason], f.Pod) {
			pods[f.Reason] = append(pods[f.Reason], f.Pod)
		}
	}
	for _, r := range reasons {
		p := Problem{Kind: ProblemPodsFailing, Reason: r, Pods: pods[r]}
		if len(p.Pods) > maxNamedPods {
			p.Pods = p.Pods[:maxNamedPods]
		}
		p.Count = len(pods[r])
		p.Text = p.Label()
		if m := first[r]; m != "" {
			p.Text += " — " + m
		}
		v.Problems = append(v.Problems, p)
	}
}

// Label is the short form of a pod problem for a row: its reason, the
// first pod and how many more ("CrashLoopBackOff: api-7d9f-x2 (+2)"); ""
// for other kinds.
func (p Problem) Label() string {
	if p.Kind != ProblemPodsFailing || len(p.Pods) == 0 {
		return ""
	}
	s := p.Reason + ": " + p.Pods[0]
	if n := max(p.Count, len(p.Pods)); n > 1 {
		s += fmt.Sprintf(" (+%d)", n-1)
	}
	return s
}

// podSummary is the rollout message for failing pods: their labels.
func podSummary(problems []Problem) string {
	var parts []string
	for _, p := range problems {
		if l := p.Label(); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}
