package demo

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/model"
)

// materialize creates the fleet's objects as they would stand after months
// of operation: namespaces, Apps, workloads, their ReplicaSets and pods, and
// the statuses the controllers last wrote.
func (s *sim) materialize(ctx context.Context) error {
	now := s.now()
	seenNS := map[string]bool{}
	for _, a := range s.plan.apps {
		fc := s.clusters[a.cluster]
		if !seenNS[a.cluster+"/"+a.ns] {
			seenNS[a.cluster+"/"+a.ns] = true
			if _, err := fc.kube.CoreV1().Namespaces().Create(ctx, namespaceObject(a.ns), metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("create namespace %s: %w", a.ns, err)
			}
		}
		s.apps[a.key()] = a
		created := metav1.NewTime(now.Add(-a.age).UTC().Truncate(time.Second))
		app := appObject(a, created)
		app.SetGeneration(int64(1 + s.rng.IntN(12)))
		w := s.newWorkload(fc, a, now)
		app.Object["status"] = appStatus(a, w, now)
		app.Object["status"].(map[string]any)["observedGeneration"] = app.GetGeneration()
		got, err := fc.dyn.Resource(crGVR(a.kind)).Namespace(a.ns).Create(ctx, app, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create %s %s/%s: %w", a.kind, a.ns, a.name, err)
		}
		s.appKeys[a.key()] = appStatusKey(app.Object["status"].(map[string]any))
		if w == nil {
			continue
		}
		if err := s.createWorkload(ctx, w, got.GetUID(), created, now); err != nil {
			return err
		}
		s.workloads[a.key()] = w
		s.order = append(s.order, w)
	}
	s.moveFloatingTags()
	return s.materializeCD(ctx)
}

// newWorkload builds the simulator's memory of a's workload in its initial
// state, or nil when the App has none.
func (s *sim) newWorkload(fc *fakeCluster, a *appPlan, now time.Time) *workload {
	kind := model.ExpectedKind(a.role)
	switch {
	case a.repo == "" || kind == model.KindNone || a.sc == scMissing:
		return nil
	}
	w := &workload{fc: fc, app: a, kind: kind, replicas: a.replicas, deadline: s.scale(progressDeadline),
		lastRev: int64(1 + s.rng.IntN(20)), paused: a.sc == scPaused, done: true, crashAll: a.sc == scCrashLoop}
	w.generation = w.lastRev + int64(s.rng.IntN(3))
	if a.sc == scBadReplicas {
		w.replicas = 3
	}
	// The revision the pods run, settled long ago.
	old := podTemplate(a, a.running)
	w.template = old
	r := s.newRevision(w, now)
	r.created = now.Add(-a.age / 2)
	r.replicas = w.replicas
	for i := 0; i < int(w.replicas); i++ {
		name := w.name() + "-" + r.hash + "-" + s.suffix()
		if kind == model.KindStatefulSet {
			name = fmt.Sprintf("%s-%d", w.name(), i)
		}
		p := s.addPod(w, r, name, i, now)
		p.created = now.Add(-time.Duration(1+s.rng.IntN(72*60)) * time.Minute)
		if p.failure == "" {
			p.ready, p.readyAt = true, p.created
		}
	}
	if a.sc == scDegraded && len(r.pods) > 0 {
		p := r.pods[len(r.pods)-1]
		p.ready, p.readyAt, p.failure, p.restarts = false, time.Time{}, "CrashLoopBackOff", int32(5+s.rng.IntN(40))
	}
	w.done, w.lastProgress = true, now
	switch a.sc {
	case scRolling, scPaused:
		w.template = podTemplate(a, a.declared) // the operator wrote the new tag
		w.done = a.sc == scPaused
	case scStuck:
		w.template = podTemplate(a, a.declared)
		nr := s.newRevision(w, now)
		nr.created = now.Add(-25 * time.Minute)
		nr.replicas = 1
		s.addPod(w, nr, w.name()+"-"+nr.hash+"-"+s.suffix(), 0, now).created = nr.created
		w.lastProgress = now.Add(-25 * time.Minute)
		w.done = false
	}
	if w.paused {
		w.done = false
	}
	return w
}

// createWorkload writes the workload with its last status, then (through
// flush) its ReplicaSets and pods.
func (s *sim) createWorkload(ctx context.Context, w *workload, appUID types.UID, created metav1.Time, now time.Time) error {
	apps := w.fc.kube.AppsV1()
	if w.kind == model.KindStatefulSet {
		st := statefulSetObject(w.app, w.template, appUID)
		st.CreationTimestamp, st.Generation = created, w.generation
		st.Status = w.statefulSetStatus(now)
		got, err := apps.StatefulSets(w.ns()).Create(ctx, st, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create statefulset %s/%s: %w", w.ns(), w.name(), err)
		}
		w.uid, w.statusKey = got.UID, statusKey(st.Status)
	} else {
		d := deploymentObject(w.app, w.template, appUID, w.paused)
		d.CreationTimestamp, d.Generation = created, w.generation
		d.Annotations = map[string]string{revisionAnnotation: fmt.Sprint(w.revisionNumber())}
		d.Status = w.deploymentStatus(appsv1.DeploymentStatus{}, now)
		got, err := apps.Deployments(w.ns()).Create(ctx, d, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create deployment %s/%s: %w", w.ns(), w.name(), err)
		}
		w.uid, w.statusKey, w.lastStatus = got.UID, statusKey(d.Status), d.Status
	}
	s.flush(ctx, w, now)
	return nil
}
