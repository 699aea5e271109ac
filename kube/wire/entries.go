package wire

import (
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// The informer caches hold these small entries instead of the API objects:
// the transforms below keep only what a row needs, so 10,000 Apps and their
// workloads fit in a few tens of MiB. Entries are replaced on every event and
// never mutated, so rows may share their maps and slices.

// appEntry is a decoded App or Service custom resource.
type AppEntry struct {
	EntryMeta
	App model.AppObject
}

func (e *AppEntry) DeepCopyObject() runtime.Object { c := *e; return &c }

// workloadEntry is a trimmed Deployment or StatefulSet.
type WorkloadEntry struct {
	EntryMeta
	W        model.Workload // PodSets and FailingPods are filled at build time
	OwnerUID string         // UID of the controlling App/Service, "" if none
	Selector string         // spec.selector as a label selector string, for RunningDigests
	Revision string         // Deployment: deployment.kubernetes.io/revision
	// StatefulSet revisions: pods of CurrentRevision run the old template
	// while CurrentRevision != UpdateRevision.
	CurrentRevision, UpdateRevision string
	CurrentReplicas, StatusReplicas int32
	// StatefulSet update strategy, as kubectl's rollout status reads it:
	// OnDelete replaces pods only when they are deleted (no rollout to
	// follow); Partition (RollingUpdate) holds pods below it on the old
	// revision, so the rollout is done once replicas-partition are updated.
	OnDelete  bool
	Partition *int32
}

func (e *WorkloadEntry) DeepCopyObject() runtime.Object { c := *e; return &c }

// podSetEntry is a trimmed ReplicaSet.
type PodSetEntry struct {
	EntryMeta
	Owner    string // name of the controlling Deployment
	Revision string
	Set      model.PodSet
}

func (e *PodSetEntry) DeepCopyObject() runtime.Object { c := *e; return &c }

// podEntry is a trimmed Pod of a watched workload: its controller and why
// it does not run.
type PodEntry struct {
	EntryMeta
	OwnerKind, OwnerUID string // the controller: a ReplicaSet or the StatefulSet
	Failures            []model.PodFailure
}

func (e *PodEntry) DeepCopyObject() runtime.Object { c := *e; return &c }

const (
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	MaxMessage         = 300
)

// keptTemplateAnnotations are the pod-template annotations rows show.
var keptTemplateAnnotations = []string{
	model.RestartedAtAnnotation, model.RestartedByAnnotation, "kubectl.kubernetes.io/restartedAt",
}

func containersOf(spec *corev1.PodSpec) []model.Container {
	out := make([]model.Container, 0, len(spec.Containers))
	for _, c := range spec.Containers {
		out = append(out, model.Container{Name: c.Name, Image: c.Image})
	}
	return out
}

func templateAnnotations(a map[string]string) map[string]string {
	var out map[string]string
	for _, k := range keptTemplateAnnotations {
		if v, ok := a[k]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// appOwnerUID returns the UID of a controlling hanzo.ai App or Service owner
// with the workload's own name (the operator's convention).
func appOwnerUID(m metav1.Object) string {
	for _, o := range m.GetOwnerReferences() {
		if o.Controller != nil && *o.Controller && strings.HasPrefix(o.APIVersion, "hanzo.ai/") &&
			(o.Kind == "App" || o.Kind == "Service") && o.Name == m.GetName() {
			return string(o.UID)
		}
	}
	return ""
}

func controllerOf(m metav1.Object) (kind, name string) {
	if o := metav1.GetControllerOfNoCopy(m); o != nil {
		return o.Kind, o.Name
	}
	return "", ""
}

func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func deploymentConditions(name string, cs []appsv1.DeploymentCondition) []model.Condition {
	out := make([]model.Condition, 0, len(cs))
	for _, c := range cs {
		out = append(out, keptCondition(string(c.Type), string(c.Status), c.Reason, c.Message, name))
	}
	return out
}

func TransformDeployment(obj any) (any, error) {
	d, ok := obj.(*appsv1.Deployment)
	if !ok {
		return obj, nil // already trimmed, or a tombstone
	}
	e := &WorkloadEntry{
		EntryMeta: TrimmedMeta(d),
		OwnerUID:  appOwnerUID(d),
		Selector:  SelectorString(d.Spec.Selector),
		Revision:  intern(d.Annotations[RevisionAnnotation]),
		W: model.Workload{
			Kind: model.KindDeployment, Name: d.Name, UID: string(d.UID),
			Generation: d.Generation, ObservedGeneration: d.Status.ObservedGeneration,
			Replicas:      d.Spec.Replicas,
			ReadyReplicas: d.Status.ReadyReplicas, UpdatedReplicas: d.Status.UpdatedReplicas,
			AvailableReplicas:   d.Status.AvailableReplicas,
			Paused:              d.Spec.Paused,
			Containers:          containersOf(&d.Spec.Template.Spec),
			TemplateAnnotations: templateAnnotations(d.Spec.Template.Annotations),
			Conditions:          deploymentConditions(d.Name, d.Status.Conditions),
		},
		StatusReplicas: d.Status.Replicas,
	}
	return e, nil
}

func TransformStatefulSet(obj any) (any, error) {
	s, ok := obj.(*appsv1.StatefulSet)
	if !ok {
		return obj, nil
	}
	conds := make([]model.Condition, 0, len(s.Status.Conditions))
	for _, c := range s.Status.Conditions {
		conds = append(conds, keptCondition(string(c.Type), string(c.Status), c.Reason, c.Message, s.Name))
	}
	paused := false // StatefulSets cannot be paused; a partition holds pods back instead
	e := &WorkloadEntry{
		EntryMeta: TrimmedMeta(s),
		OwnerUID:  appOwnerUID(s),
		Selector:  SelectorString(s.Spec.Selector),
		W: model.Workload{
			Kind: model.KindStatefulSet, Name: s.Name, UID: string(s.UID),
			Generation: s.Generation, ObservedGeneration: s.Status.ObservedGeneration,
			Replicas:      s.Spec.Replicas,
			ReadyReplicas: s.Status.ReadyReplicas, UpdatedReplicas: s.Status.UpdatedReplicas,
			AvailableReplicas:   s.Status.AvailableReplicas,
			Paused:              paused,
			Containers:          containersOf(&s.Spec.Template.Spec),
			TemplateAnnotations: templateAnnotations(s.Spec.Template.Annotations),
			Conditions:          conds,
			// kubectl: a StatefulSet's rollout is done when its current
			// revision is the update revision; pods failing after that are
			// health, as for a Deployment whose new ReplicaSet was available.
			RolledOut: s.Status.CurrentRevision != "" && s.Status.CurrentRevision == s.Status.UpdateRevision,
		},
		CurrentRevision: s.Status.CurrentRevision, UpdateRevision: s.Status.UpdateRevision,
		CurrentReplicas: s.Status.CurrentReplicas, StatusReplicas: s.Status.Replicas,
		OnDelete: s.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType,
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; !e.OnDelete && ru != nil && ru.Partition != nil {
		p := *ru.Partition
		e.Partition = &p
		// A partition above 0 keeps pods on the current revision by design:
		// rolled out once every pod at or above it is updated (kubectl).
		if p > 0 && s.Spec.Replicas != nil {
			e.W.Partition = p
			e.W.RolledOut = s.Status.UpdatedReplicas >= *s.Spec.Replicas-p
		}
	}
	return e, nil
}

func TransformReplicaSet(obj any) (any, error) {
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok {
		return obj, nil
	}
	kind, owner := controllerOf(rs)
	if kind != "Deployment" {
		owner = ""
	}
	e := &PodSetEntry{
		EntryMeta: TrimmedMeta(rs),
		Owner:     owner,
		Revision:  rs.Annotations[RevisionAnnotation],
		Set:       model.PodSet{Name: rs.Name, Replicas: rs.Status.Replicas, Available: rs.Status.AvailableReplicas},
	}
	if rs.Status.Replicas > 0 || (rs.Spec.Replicas != nil && *rs.Spec.Replicas > 0) {
		e.Set.Containers = containersOf(&rs.Spec.Template.Spec) // history without pods needs no template
	}
	return e, nil
}

// transformPod keeps why a pod does not run: a container waiting on
// something other than its start (image pulls, crash loops, bad config), a
// last termination by the OOM killer, or no node to run on. A pod that is
// going away or finished is not failing.
func TransformPod(obj any) (any, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	e := &PodEntry{EntryMeta: TrimmedMeta(p)}
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		e.OwnerKind, e.OwnerUID = ref.Kind, string(ref.UID)
	}
	if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return e, nil
	}
	fail := func(reason, msg string) {
		f := model.PodFailure{Pod: p.Name, Reason: Truncate(reason, 64), Message: Truncate(msg, MaxMessage)}
		if !slices.Contains(e.Failures, f) {
			e.Failures = append(e.Failures, f)
		}
	}
	statuses := append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...)
	for _, st := range statuses {
		oom := st.LastTerminationState.Terminated != nil && st.LastTerminationState.Terminated.Reason == model.OOMKilledReason ||
			st.State.Terminated != nil && st.State.Terminated.Reason == model.OOMKilledReason
		switch w := st.State.Waiting; {
		case oom: // the cause, where a crash loop is only its symptom
			fail(model.OOMKilledReason, "container "+st.Name+" was killed for memory")
		case w != nil && w.Reason != "" && w.Reason != "ContainerCreating" && w.Reason != "PodInitializing":
			fail(w.Reason, w.Message)
		}
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason != "" {
			fail(c.Reason, c.Message)
		}
	}
	return e, nil
}

// metaOf returns the trimmed metadata of a cached entry or tombstone.
func MetaOf(obj any) (metav1.Object, bool) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	m, ok := obj.(metav1.Object)
	return m, ok
}
