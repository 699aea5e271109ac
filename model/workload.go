package model

import (
	"fmt"
	"time"

	"github.com/hanzoai/driftboard/model/imageref"
)

// ExpectedKind is the workload kind the operator makes for a role.
func ExpectedKind(role string) WorkloadKind {
	switch role {
	case "", "generic", "service", "llm", "iam", "kms", "explorer", "function",
		"indexer", "observability", "queue", "spa", "static":
		return KindDeployment
	case "sql", "kv", "docdb", "s3", "datastore":
		return KindStatefulSet
	}
	return KindNone // ingress makes shards, unknown roles make nothing
}

func desiredOf(wl *Workload) int32 {
	if wl.Replicas == nil {
		return 1
	}
	return *wl.Replicas
}

// workloadView summarises the workload and adds workload problems to the row.
// A role that makes no workload by design has no workload problem.
func workloadView(app AppObject, class RoleClass, wl *Workload, declared imageref.Image, imageOK bool, v *AppView) WorkloadView {
	want := ExpectedKind(app.Role)
	if !class.MakesWorkload() {
		want = KindNone
	}
	if wl == nil {
		w := WorkloadView{Kind: want, Name: app.Name}
		switch {
		case class == RoleUnknown:
			w.None = "unknown role"
		case !class.MakesWorkload():
			w.None = string(class)
		default:
			v.addProblem(ProblemNoWorkload, fmt.Sprintf("%s %s not found.", want, app.Name))
		}
		return w
	}
	w := WorkloadView{
		Kind:       wl.Kind,
		Name:       wl.Name,
		Found:      true,
		OwnedByApp: wl.OwnedByApp,
		Desired:    desiredOf(wl),
		Ready:      wl.ReadyReplicas,
		Updated:    wl.UpdatedReplicas,
		Available:  wl.AvailableReplicas,
		Paused:     wl.Paused,
		Conditions: wl.Conditions,
	}
	w.RestartedAt, w.RestartedBy = lastRestart(wl.TemplateAnnotations)
	if c, ok := pickContainer(wl.Containers, declared, imageOK); ok {
		if im, err := imageref.Parse(c.Image); err == nil {
			w.SpecTag = im.RunTag()
		} else {
			v.addProblem(ProblemMalformed, fmt.Sprintf("Workload container %s: malformed image reference: %v.", c.Name, err))
		}
	}
	if ps := runningPodSet(wl); ps != nil {
		w.Digests = ps.Digests
	}
	if !wl.OwnedByApp {
		v.addProblem(ProblemLegacyWorkload, fmt.Sprintf("%s %s is not owned by the App (legacy workload).", wl.Kind, wl.Name))
	}
	if wl.Kind != want {
		if want == KindNone {
			v.addProblem(ProblemWrongKind, fmt.Sprintf("Role \"%s\" makes no workload, but %s %s exists.", app.Role, wl.Kind, wl.Name))
		} else {
			v.addProblem(ProblemWrongKind, fmt.Sprintf("Workload is a %s; role \"%s\" expects a %s.", wl.Kind, app.Role, want))
		}
	}
	n := len(v.Problems)
	addPodProblems(wl.FailingPods, v)
	w.Rollout, w.Message = rolloutOf(wl, w, podSummary(v.Problems[n:]))
	if w.Rollout == RolloutProgressing || w.Rollout == RolloutStuck {
		w.TargetTag = w.SpecTag
	}
	return w
}

// pickContainer returns the container running the App's repository, else the first.
func pickContainer(cs []Container, declared imageref.Image, imageOK bool) (Container, bool) {
	if len(cs) == 0 {
		return Container{}, false
	}
	if imageOK {
		for _, c := range cs {
			if im, err := imageref.Parse(c.Image); err == nil && im.SameRepository(declared) {
				return c, true
			}
		}
	}
	return cs[0], true
}

// runningPodSet is the pod set with most available pods (ties: the current
// one, then the first), or nil when none is observed available.
func runningPodSet(wl *Workload) *PodSet {
	var best *PodSet
	for i := range wl.PodSets {
		ps := &wl.PodSets[i]
		if ps.Available <= 0 {
			continue
		}
		if best == nil || ps.Available > best.Available || (ps.Available == best.Available && ps.Current && !best.Current) {
			best = ps
		}
	}
	return best
}

// runningTag is what the pods really run during a rollout when pod sets are
// known, else what the workload's template asks for.
func runningTag(wl *Workload, declared imageref.Image, imageOK bool) string {
	cs := wl.Containers
	if ps := runningPodSet(wl); ps != nil {
		cs = ps.Containers
	}
	c, ok := pickContainer(cs, declared, imageOK)
	if !ok {
		return ""
	}
	im, err := imageref.Parse(c.Image)
	if err != nil {
		return ""
	}
	return im.RunTag()
}

// healthOf follows hanzo-facts: desired 0 → yellow; ready ≥ desired → green;
// ready > 0 → yellow; else red; a rollout in progress is at best yellow.
func healthOf(wl *Workload) Health {
	if wl == nil {
		return HealthUnknown
	}
	desired := desiredOf(wl)
	var h Health
	switch {
	case desired <= 0:
		return HealthYellow
	case wl.ReadyReplicas >= desired:
		h = HealthGreen
	case wl.ReadyReplicas > 0:
		h = HealthYellow
	default:
		h = HealthRed
	}
	if h == HealthGreen && wl.UpdatedReplicas < desired {
		h = HealthYellow
	}
	return h
}

// rolloutOf follows kubectl's rollout status; failing names the pods that
// fail ("" for none): they make a rollout stuck before its deadline says
// so, while after a finished rollout they are a health problem only.
func rolloutOf(wl *Workload, w WorkloadView, failing string) (RolloutState, string) {
	if wl.Paused {
		return RolloutPaused, "Rollout is paused."
	}
	for _, c := range wl.Conditions {
		if c.Type == "Progressing" && c.Status == "False" && c.Reason == "ProgressDeadlineExceeded" {
			msg := c.Message
			if msg == "" {
				msg = "Progress deadline exceeded."
			}
			return RolloutStuck, msg
		}
	}
	oldPods := int32(0)
	for _, ps := range wl.PodSets {
		if !ps.Current {
			oldPods += ps.Replicas
		}
	}
	settled := wl.RolledOut // the controller finished this template earlier
	for _, c := range wl.Conditions {
		if c.Type == "Progressing" && c.Status == "True" && c.Reason == "NewReplicaSetAvailable" {
			settled = true
		}
	}
	rolledOut := settled && w.Updated >= w.Desired && oldPods == 0
	if failing != "" && !rolledOut {
		return RolloutStuck, failing
	}
	switch {
	case wl.ObservedGeneration < wl.Generation:
		return RolloutProgressing, "Waiting for the controller to observe the new spec."
	case wl.Partition > 0 && wl.RolledOut && w.Ready >= w.Desired:
		return RolloutComplete, fmt.Sprintf("Partitioned rollout complete: %d/%d updated; the partition (%d) keeps the rest on the old revision.", w.Updated, w.Desired, wl.Partition)
	case rolledOut && w.Ready < w.Desired:
		// Pods failing after a finished rollout are a health problem, not a rollout.
		return RolloutComplete, fmt.Sprintf("Rolled out; %d/%d ready.", w.Ready, w.Desired)
	case w.Updated < w.Desired || w.Ready < w.Desired || oldPods > 0:
		msg := fmt.Sprintf("%d/%d updated, %d/%d ready", w.Updated, w.Desired, w.Ready, w.Desired)
		if oldPods > 0 {
			msg += fmt.Sprintf(", %d old pods", oldPods)
		}
		return RolloutProgressing, msg + "."
	}
	return RolloutComplete, ""
}

// lastRestart is the newest of driftboard's and kubectl's restart stamps,
// with who when the stamp says (driftboard's restartedBy; kubectl names no
// one).
func lastRestart(ann map[string]string) (at, by string) {
	ours, kubectl := ann[RestartedAtAnnotation], ann[KubectlRestartedAtAnnotation]
	if kubectl != "" { // parsed only when both are set: a failed parse allocates, and most rows have neither
		if ours == "" {
			return kubectl, "kubectl rollout restart"
		}
		to, errO := time.Parse(time.RFC3339, ours)
		tk, errK := time.Parse(time.RFC3339, kubectl)
		if errO != nil && errK == nil || errO == nil && errK == nil && tk.After(to) {
			return kubectl, "kubectl rollout restart"
		}
	}
	if ours == "" {
		return "", ""
	}
	return ours, ann[RestartedByAnnotation]
}
