package demo

import (
	"context"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/drift"
)

// Scripted fleet life, in simulated time: something happens every 20–40 s.
const (
	firstEvent   = 8 * time.Second
	eventMin     = 20 * time.Second
	eventJitter  = 20 * time.Second
	unreadyMin   = 12 * time.Second
	unreadyExtra = 8 * time.Second
)

// journal keeps the last simulator events, for the curious and for tests.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(now time.Time, format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, now.Local().Format("15:04:05")+" "+fmt.Sprintf(format, args...))
	if len(j.entries) > 200 {
		j.entries = j.entries[len(j.entries)-100:]
	}
}

func (j *journal) list() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.entries...)
}

// script runs the next scripted event when it is due.
func (s *sim) script(ctx context.Context, now time.Time) {
	if now.Before(s.nextEvent) {
		return
	}
	s.nextEvent = now.Add(s.scale(eventMin + time.Duration(s.scriptRng.Int64N(int64(eventJitter)))))
	n := s.scriptRng.IntN(100)
	switch {
	case n < 35 && s.gitBump(ctx, now):
	case n < 60 && s.podUnready(now):
	case n < 68 && s.floatingPush(now):
	default:
		s.newRelease(now)
	}
}

// newRelease publishes a release of a repo the reader can see.
func (s *sim) newRelease(now time.Time) {
	var repos []string
	for _, name := range s.plan.repoNames {
		if _, visible := s.rel.latest(name); visible {
			repos = append(repos, name)
		}
	}
	if len(repos) == 0 {
		return
	}
	repo := repos[s.scriptRng.IntN(len(repos))]
	assets := 2 + s.scriptRng.IntN(7)
	if s.scriptRng.IntN(10) == 0 {
		assets = 0
	}
	tag := s.rel.publish(repo, s.scriptRng.IntN(5) == 0, assets)
	s.journal.add(now, "GitHub: %s released %s (%d assets)", repo, tag, assets)
}

// gitBump commits the latest release of a stale App to "git": Hanzo CD
// syncs the App's new tag and the operator rolls it out.
func (s *sim) gitBump(ctx context.Context, now time.Time) bool {
	var cands []*workload
	for _, w := range s.order {
		a := w.app
		latest, visible := s.rel.latest(a.repo)
		if a.fixed || !visible || !w.done || !drift.IsSemverTag(a.declared) || a.declared == latest || s.plan.unpullable(a.repo, latest) {
			continue
		}
		cands = append(cands, w)
	}
	if len(cands) == 0 {
		return false
	}
	w := cands[s.scriptRng.IntN(len(cands))]
	a := w.app
	latest, _ := s.rel.latest(a.repo)
	ri := w.fc.dyn.Resource(crGVR(a.kind)).Namespace(a.ns)
	u, err := ri.Get(ctx, a.name, metav1.GetOptions{})
	if err != nil {
		return false
	}
	if err := unstructured.SetNestedField(u.Object, latest, "spec", "image", "tag"); err != nil {
		return false
	}
	if _, err := ri.Update(ctx, u, metav1.UpdateOptions{}); err != nil {
		return false
	}
	s.commitTag(a, latest)
	s.journal.add(now, "git: universe commits %s %s/%s %s → %s; Hanzo CD syncs it", a.cluster, a.ns, a.name, a.declared, latest)
	return true
}

// podUnready fails one pod's readiness probe for a while.
func (s *sim) podUnready(now time.Time) bool {
	var cands []*workload
	for _, w := range s.order {
		if w.done && w.replicas >= 2 && w.counts(now).ready == w.replicas && !w.crashAll {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		return false
	}
	w := cands[s.scriptRng.IntN(len(cands))]
	r := w.current()
	if r == nil || len(r.pods) == 0 {
		return false
	}
	p := r.pods[s.scriptRng.IntN(len(r.pods))]
	p.unreadyUntil = now.Add(s.scale(unreadyMin + time.Duration(s.scriptRng.Int64N(int64(unreadyExtra)))))
	p.dirty, r.dirty, w.nextStep = true, true, now
	s.journal.add(now, "kubelet: %s/%s readiness probe failed (HTTP 503 on /health)", w.ns(), p.name)
	return true
}

// floatingPush pushes a new build under a floating tag: pods keep the
// digest they pulled, the tag now points elsewhere.
func (s *sim) floatingPush(now time.Time) bool {
	var cands []*appPlan
	for _, a := range s.plan.apps {
		if a.repo != "" && a.running != "" && !drift.IsSemverTag(a.running) {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return false
	}
	a := cands[s.scriptRng.IntN(len(cands))]
	s.reg.push(a.repo, a.running)
	s.rel.signal()
	s.journal.add(now, "CI: pushed a new %s build of %s", a.running, imageRef(a.repo, a.running))
	return true
}
