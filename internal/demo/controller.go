package demo

import (
	"strconv"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// The simulated controllers: what the deployment, ReplicaSet and StatefulSet
// controllers and the kubelets would do, one small step at a time, in memory.
// flush (sim.go) then writes what changed to the fake API.

// kubelet moves pods along: new pods become ready, probe failures end.
func (s *sim) kubelet(w *workload, now time.Time) {
	for _, r := range w.revs {
		for _, p := range r.pods {
			if !p.ready && p.failure == "" && !p.readyAt.IsZero() && !now.Before(p.readyAt) {
				p.ready, p.dirty, r.dirty = true, true, true
				w.lastProgress = now
			}
			if !p.unreadyUntil.IsZero() && !now.Before(p.unreadyUntil) {
				p.unreadyUntil, p.dirty, r.dirty = time.Time{}, true, true
			}
		}
	}
}

// newRevision records a revision for the workload's current template.
func (s *sim) newRevision(w *workload, now time.Time) *revision {
	w.lastRev++
	h := templateHash(w.template)
	r := &revision{name: w.name() + "-" + h, hash: h, number: w.lastRev, template: *w.template.DeepCopy(),
		created: now, dirty: true}
	w.revs = append(w.revs, r)
	w.done, w.lastProgress = false, now
	return r
}

// addPod starts a pod of revision r.
func (s *sim) addPod(w *workload, r *revision, name string, ordinal int, now time.Time) *pod {
	c := r.template.Spec.Containers[0]
	repo, tag := splitImage(c.Image)
	p := &pod{name: name, ordinal: ordinal, created: now, dirty: true}
	switch {
	case s.plan.unpullable(repo, tag):
		p.failure = "ImagePullBackOff"
	case w.crashAll:
		p.failure, p.restarts, p.digest = "CrashLoopBackOff", int32(3+s.rng.IntN(20)), s.reg.digest(repo, tag)
	default:
		p.digest = s.reg.digest(repo, tag)
		p.readyAt = now.Add(s.scale(podStartMin + time.Duration(s.rng.Int64N(int64(podStartJitter)))))
	}
	r.pods = append(r.pods, p)
	r.dirty = true
	return p
}

// removePod takes one pod out of r, an unready one when there is one.
func (s *sim) removePod(w *workload, r *revision, now time.Time) {
	if len(r.pods) == 0 {
		return
	}
	i := len(r.pods) - 1
	for j, p := range r.pods {
		if !p.isReady(now) {
			i = j
			break
		}
	}
	s.deletePod(w, r.pods[i])
	r.pods = append(r.pods[:i], r.pods[i+1:]...)
	r.dirty = true
}

// stepDeployment is one step of a RollingUpdate with maxSurge 1 and
// maxUnavailable 0: surge one new pod, and retire an old pod only once
// the new one is available.
func (s *sim) stepDeployment(w *workload, now time.Time) {
	if w.paused {
		return
	}
	cur := w.current()
	if cur == nil {
		cur = s.newRevision(w, now)
	}
	n := w.replicas
	var total, avail int32
	for _, r := range w.revs {
		total += r.replicas
		avail += r.readyPods(now)
	}
	switch {
	case cur.replicas < n && total < n+1:
		cur.replicas++
		s.addPod(w, cur, w.name()+"-"+cur.hash+"-"+s.suffix(), 0, now)
		w.lastProgress = now
	case cur.replicas > n:
		cur.replicas--
		s.removePod(w, cur, now)
	}
	s.retireOld(w, cur, avail, n, now)
	if !w.done && cur.replicas == n && int32(len(cur.pods)) == n && cur.readyPods(now) == n && s.oldScaledDown(w, cur) {
		w.done = true
	}
	s.pruneHistory(w, cur)
}

// retireOld removes one old pod: an unhealthy one first (it counts for
// nothing), else a ready one while more than n pods are available.
func (s *sim) retireOld(w *workload, cur *revision, avail, n int32, now time.Time) {
	for _, r := range w.revs {
		if r != cur && r.replicas > 0 && r.readyPods(now) < int32(len(r.pods)) {
			r.replicas--
			s.removePod(w, r, now)
			return
		}
	}
	if avail <= n {
		return
	}
	for _, r := range w.revs {
		if r != cur && r.replicas > 0 {
			r.replicas--
			s.removePod(w, r, now)
			w.lastProgress = now
			return
		}
	}
}

func (s *sim) oldScaledDown(w *workload, cur *revision) bool {
	for _, r := range w.revs {
		if r != cur && len(r.pods) > 0 {
			return false
		}
	}
	return true
}

// pruneHistory keeps revisionHistoryLimit (10) old ReplicaSets.
func (s *sim) pruneHistory(w *workload, cur *revision) {
	for len(w.revs) > 11 && w.revs[0] != cur && len(w.revs[0].pods) == 0 {
		s.deleteReplicaSet(w, w.revs[0])
		w.revs = w.revs[1:]
	}
}

// stepStatefulSet is one step of an OrderedReady RollingUpdate: create
// missing pods in order, then replace the highest old pod once all are ready.
func (s *sim) stepStatefulSet(w *workload, now time.Time) {
	cur := w.current()
	if cur == nil {
		cur = s.newRevision(w, now)
	}
	n := int(w.replicas)
	byOrdinal := map[int]*pod{}
	owner := map[int]*revision{}
	allReady := true
	for _, r := range w.revs {
		for _, p := range r.pods {
			byOrdinal[p.ordinal], owner[p.ordinal] = p, r
			if !p.isReady(now) {
				allReady = false
			}
		}
	}
	// Scale down, highest ordinal first.
	for i := len(byOrdinal) - 1; i >= n; i-- {
		if p, ok := byOrdinal[i]; ok {
			s.removeOrdinal(w, owner[i], p)
			return
		}
	}
	// Create the lowest missing ordinal once those below are ready.
	for i := 0; i < n; i++ {
		if _, ok := byOrdinal[i]; !ok {
			if allReady {
				s.addPod(w, cur, w.name()+"-"+strconv.Itoa(i), i, now)
				w.lastProgress = now
			}
			return
		}
	}
	// Replace the highest pod still on an old revision.
	if allReady {
		for i := n - 1; i >= 0; i-- {
			if owner[i] != cur {
				s.removeOrdinal(w, owner[i], byOrdinal[i])
				w.lastProgress = now
				return
			}
		}
	}
	if !w.done && int(cur.readyPods(now)) == n && len(cur.pods) == n {
		w.done = true
	}
}

func (s *sim) removeOrdinal(w *workload, r *revision, p *pod) {
	for i, q := range r.pods {
		if q == p {
			s.deletePod(w, p)
			r.pods = append(r.pods[:i], r.pods[i+1:]...)
			r.dirty = true
			return
		}
	}
}

func (s *sim) step(w *workload, now time.Time) {
	s.kubelet(w, now)
	if w.kind == model.KindStatefulSet {
		s.stepStatefulSet(w, now)
	} else {
		s.stepDeployment(w, now)
	}
}

// suffix is the random part of a ReplicaSet pod's name, from the seeded rng.
func (s *sim) suffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, 5)
	for i := range b {
		b[i] = alphabet[s.rng.IntN(len(alphabet))]
	}
	return string(b)
}

// splitImage splits registry/repo:tag into owner/repo and tag.
func splitImage(image string) (repo, tag string) {
	name := image
	if i := lastColonAfterSlash(image); i >= 0 {
		name, tag = image[:i], image[i+1:]
	}
	if j := strings.IndexByte(name, '/'); j >= 0 && strings.Contains(name[:j], ".") {
		name = name[j+1:]
	}
	return name, tag
}
