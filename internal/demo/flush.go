package demo

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/model"
)

// flush writes what a step changed: ReplicaSets, pods, the workload's
// status and the App's status. A failed write stays dirty and is retried
// on the next step (a Conflict means someone else wrote first).
func (s *sim) flush(ctx context.Context, w *workload, now time.Time) {
	apps := w.fc.kube.AppsV1()
	pods := w.fc.kube.CoreV1().Pods(w.ns())
	for _, r := range w.revs {
		if r.dirty && w.kind == model.KindDeployment {
			rs := w.replicaSetObject(r, now)
			if !r.exists {
				if got, err := apps.ReplicaSets(w.ns()).Create(ctx, rs, metav1.CreateOptions{}); err == nil {
					r.uid, r.exists, r.dirty = got.UID, true, false
					s.scaledUp(ctx, w, r, now)
				}
			} else if _, err := apps.ReplicaSets(w.ns()).Update(ctx, rs, metav1.UpdateOptions{}); err == nil {
				r.dirty = false
			}
		} else if w.kind == model.KindStatefulSet {
			r.dirty = false
		}
		if w.kind == model.KindDeployment && !r.exists {
			continue // pods need their ReplicaSet's uid
		}
		for _, p := range r.pods {
			if !p.dirty {
				continue
			}
			obj := w.podObject(r, p, now)
			if !p.exists {
				if got, err := pods.Create(ctx, obj, metav1.CreateOptions{}); err == nil {
					p.uid, p.exists, p.dirty = got.UID, true, false
				}
			} else if _, err := pods.Update(ctx, obj, metav1.UpdateOptions{}); err == nil {
				p.dirty = false
			}
			if !p.dirty {
				s.podEvents(ctx, w, p, obj.Spec.Containers[0], now)
			}
		}
	}
	s.writeWorkloadStatus(ctx, w, now)
	s.writeAppStatus(ctx, w.app, w, now)
}

func (s *sim) deletePod(w *workload, p *pod) {
	if p.exists {
		_ = w.fc.kube.CoreV1().Pods(w.ns()).Delete(context.Background(), p.name, metav1.DeleteOptions{})
	}
}

func (s *sim) deleteReplicaSet(w *workload, r *revision) {
	if r.exists {
		_ = w.fc.kube.AppsV1().ReplicaSets(w.ns()).Delete(context.Background(), r.name, metav1.DeleteOptions{})
	}
}

// writeWorkloadStatus updates the workload's status when it changed.
func (s *sim) writeWorkloadStatus(ctx context.Context, w *workload, now time.Time) {
	apps := w.fc.kube.AppsV1()
	if w.kind == model.KindStatefulSet {
		st := w.statefulSetStatus(now)
		key := statusKey(st)
		if key == w.statusKey {
			return
		}
		cur, err := apps.StatefulSets(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
		if err != nil || cur.Generation != w.generation {
			return // a newer spec: refresh first (the informer queued it)
		}
		cur.Status = st
		if _, err := apps.StatefulSets(w.ns()).UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err == nil {
			w.statusKey = key
		}
		return
	}
	key := statusKey(w.deploymentStatus(w.lastStatus, now))
	if key == w.statusKey {
		return
	}
	cur, err := apps.Deployments(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
	if err != nil || cur.Generation != w.generation {
		return
	}
	cur.Status = w.deploymentStatus(cur.Status, now)
	var err2 error
	if rev := fmt.Sprint(w.revisionNumber()); cur.Annotations[revisionAnnotation] != rev {
		// The controller moves the revision annotation with a plain update.
		if cur.Annotations == nil {
			cur.Annotations = map[string]string{}
		}
		cur.Annotations[revisionAnnotation] = rev
		_, err2 = apps.Deployments(w.ns()).Update(ctx, cur, metav1.UpdateOptions{})
	} else {
		_, err2 = apps.Deployments(w.ns()).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
	}
	if err2 == nil {
		w.statusKey, w.lastStatus = key, cur.Status
	}
}

// refresh reads the workload's spec from the API after it changed.
func (s *sim) refresh(ctx context.Context, w *workload, now time.Time) {
	apps := w.fc.kube.AppsV1()
	if w.kind == model.KindStatefulSet {
		st, err := apps.StatefulSets(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
		if err != nil {
			return
		}
		w.generation, w.template = st.Generation, *st.Spec.Template.DeepCopy()
		w.replicas = derefOr(st.Spec.Replicas, 1)
	} else {
		d, err := apps.Deployments(w.ns()).Get(ctx, w.name(), metav1.GetOptions{})
		if err != nil {
			return
		}
		w.generation, w.template, w.paused = d.Generation, *d.Spec.Template.DeepCopy(), d.Spec.Paused
		w.replicas = derefOr(d.Spec.Replicas, 1)
	}
	w.statusKey = "" // observedGeneration moves on
	w.nextStep = now
}

func derefOr(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}
