package demo

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// counts are a workload's pods as its controller would count them.
type counts struct {
	replicas, updated, ready int32
}

func (w *workload) counts(now time.Time) counts {
	var c counts
	cur := w.current()
	for _, r := range w.revs {
		c.replicas += int32(len(r.pods))
		c.ready += r.readyPods(now)
		if r == cur {
			c.updated = int32(len(r.pods))
		}
	}
	return c
}

// deploymentStatus is what the deployment controller would report.
func (w *workload) deploymentStatus(old appsv1.DeploymentStatus, now time.Time) appsv1.DeploymentStatus {
	c := w.counts(now)
	st := appsv1.DeploymentStatus{
		ObservedGeneration: w.generation,
		Replicas:           c.replicas, UpdatedReplicas: c.updated,
		ReadyReplicas: c.ready, AvailableReplicas: c.ready,
		UnavailableReplicas: max(w.replicas-c.ready, 0),
	}
	rsName := w.name()
	if cur := w.current(); cur != nil {
		rsName = cur.name
	} else if len(w.revs) > 0 {
		rsName = w.revs[len(w.revs)-1].name
	}
	avail := deployCond(appsv1.DeploymentAvailable, corev1.ConditionTrue, "MinimumReplicasAvailable", "Deployment has minimum availability.")
	if c.ready < w.replicas {
		avail = deployCond(appsv1.DeploymentAvailable, corev1.ConditionFalse, "MinimumReplicasUnavailable", "Deployment does not have minimum availability.")
	}
	var prog appsv1.DeploymentCondition
	switch {
	case w.paused:
		prog = deployCond(appsv1.DeploymentProgressing, corev1.ConditionUnknown, "DeploymentPaused", "Deployment is paused")
	case w.done:
		prog = deployCond(appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable",
			fmt.Sprintf("ReplicaSet %q has successfully progressed.", rsName))
	case w.stalled(now):
		prog = deployCond(appsv1.DeploymentProgressing, corev1.ConditionFalse, "ProgressDeadlineExceeded",
			fmt.Sprintf("ReplicaSet %q has timed out progressing.", rsName))
	default:
		prog = deployCond(appsv1.DeploymentProgressing, corev1.ConditionTrue, "ReplicaSetUpdated",
			fmt.Sprintf("ReplicaSet %q is progressing.", rsName))
	}
	st.Conditions = []appsv1.DeploymentCondition{keepTimes(avail, old.Conditions, now), keepTimes(prog, old.Conditions, now)}
	return st
}

// stalled: no progress within the deadline (Speed applies through lastProgress).
func (w *workload) stalled(now time.Time) bool {
	return !w.done && !w.paused && now.Sub(w.lastProgress) > w.deadline
}

func deployCond(t appsv1.DeploymentConditionType, s corev1.ConditionStatus, reason, msg string) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{Type: t, Status: s, Reason: reason, Message: msg}
}

// keepTimes carries the condition's times over while it does not change.
func keepTimes(c appsv1.DeploymentCondition, old []appsv1.DeploymentCondition, now time.Time) appsv1.DeploymentCondition {
	t := metav1.NewTime(now.UTC().Truncate(time.Second))
	c.LastUpdateTime, c.LastTransitionTime = t, t
	for _, o := range old {
		if o.Type != c.Type {
			continue
		}
		if o.Status == c.Status {
			c.LastTransitionTime = o.LastTransitionTime
			if o.Reason == c.Reason && o.Message == c.Message {
				c.LastUpdateTime = o.LastUpdateTime
			}
		}
	}
	return c
}

// statefulSetStatus is what the StatefulSet controller would report.
func (w *workload) statefulSetStatus(now time.Time) appsv1.StatefulSetStatus {
	c := w.counts(now)
	cur := w.current()
	st := appsv1.StatefulSetStatus{
		ObservedGeneration: w.generation,
		Replicas:           c.replicas, ReadyReplicas: c.ready, AvailableReplicas: c.ready,
		UpdatedReplicas: c.updated, CollisionCount: ptr(int32(0)),
	}
	if cur != nil {
		st.UpdateRevision = cur.name
	}
	// currentRevision is the revision every pod ran before the update.
	st.CurrentRevision = st.UpdateRevision
	st.CurrentReplicas = c.updated
	if !w.done {
		for _, r := range w.revs {
			if r != cur && len(r.pods) > 0 {
				st.CurrentRevision, st.CurrentReplicas = r.name, int32(len(r.pods))
				break
			}
		}
	}
	return st
}

// statusKey summarises a status for "did it change" checks, without times.
func statusKey(v any) string {
	switch st := v.(type) {
	case appsv1.DeploymentStatus:
		k := fmt.Sprintf("%d/%d/%d/%d/%d/%d", st.ObservedGeneration, st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, st.UnavailableReplicas)
		for _, c := range st.Conditions {
			k += "|" + string(c.Type) + string(c.Status) + c.Reason + c.Message
		}
		return k
	case appsv1.StatefulSetStatus:
		return fmt.Sprintf("%d/%d/%d/%d/%d/%s/%s", st.ObservedGeneration, st.Replicas, st.ReadyReplicas, st.UpdatedReplicas, st.CurrentReplicas, st.CurrentRevision, st.UpdateRevision)
	}
	return fmt.Sprint(v)
}
