package kube

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// DefaultMaxPodWatches bounds the pod watches of one cluster
// (FleetOptions.MaxPodWatches overrides it). Each watches the
// pods of one workload that rolls out or is unready, by its namespace and
// selector, so a healthy fleet watches no pods and running pods are never
// all cached. Beyond the bound, further workloads wait for a free watch and
// the cluster's notice says how many do: their failing pods are not named
// (their rollout still ends "stuck" at its progress deadline).
const DefaultMaxPodWatches = 50

// podWatch is the informer on one workload's pods.
type podWatch struct {
	selector string
	id       string // the connection state's informer id
	inf      cache.SharedIndexInformer
	stop     context.CancelFunc
}

// podWatches are a cluster's pod watches, keyed by row.
type podWatches struct {
	mu      sync.Mutex
	max     int             // watches at once
	ctx     context.Context // the cluster's run; nil before it starts
	byKey   map[model.Key]*podWatch
	waiting map[model.Key]bool // wanted, beyond the bound
}

// start lets watches run under ctx (the cluster's run).
func (p *podWatches) start(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
}

// count is the number of pod watches running.
func (p *podWatches) count() (running, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byKey), len(p.waiting)
}

// PodWatches is the number of pod watches the fleet runs, and of workloads
// that want one beyond the bound.
func (f *Fleet) PodWatches() (running, waiting int) {
	for _, c := range f.clusters {
		r, w := c.pods.count()
		running += r
		waiting += w
	}
	return running, waiting
}

// wantPods starts or stops the pod watch of row k: started while its
// workload (with pod selector sel) rolls out or is unready, stopped once it
// is healthy, gone, or its selector changed.
func (c *cluster) wantPods(k model.Key, sel string, want bool) {
	p := &c.pods
	s := c.scopeFor(k.Namespace)
	want = want && sel != "" && s != nil && s.podsAllowed
	p.mu.Lock()
	w := p.byKey[k]
	if w != nil && (!want || w.selector != sel) {
		delete(p.byKey, k)
		w.stop()
		c.conn.forget(w.id)
		w = nil
	}
	delete(p.waiting, k)
	var next []model.Key
	switch {
	case !want && len(p.waiting) > 0 && len(p.byKey) < p.max:
		next = slices.Collect(maps.Keys(p.waiting))
	case want && w == nil && p.ctx != nil && len(p.byKey) < p.max:
		if w = c.newPodWatch(p.ctx, k, sel); w != nil {
			p.byKey[k] = w
		}
	case want && w == nil:
		p.waiting[k] = true
	}
	waiting, bound := len(p.waiting), p.max
	p.mu.Unlock()
	c.conn.setNote("pods", waitingNote(waiting, bound))
	for _, n := range next { // a watch is free: those waiting are reconsidered
		c.fleet.markDirty(n)
	}
}

func waitingNote(n, bound int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d unready workloads wait for a pod watch (at most %d at once): their failing pods are not named yet", n, bound)
}

// newPodWatch runs an informer on the pods of k's workload; its events mark
// the row dirty. Callers hold p.mu.
func (c *cluster) newPodWatch(ctx context.Context, k model.Key, sel string) *podWatch {
	pods := c.clients.Kube.CoreV1().Pods(k.Namespace)
	id := k.Namespace + "/pods of " + k.Name
	lw := &observedLW{id: id, conn: c.conn,
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(c.clients.Kube),
		list: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.LabelSelector = sel
			return pods.List(ctx, o)
		},
		watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = sel
			return pods.Watch(ctx, o)
		},
	}
	inf, _, err := c.newInformer(informerSpec{what: "pods", example: &podExample, lw: lw, transform: wire.TransformPod,
		key: func(any) (string, string) { return k.Namespace, k.Name }})
	if err != nil {
		c.conn.setNote("pods-error", err.Error())
		return nil
	}
	wctx, stop := context.WithCancel(ctx)
	go inf.RunWithContext(wctx)
	return &podWatch{selector: sel, id: id, inf: inf, stop: stop}
}

// failingPods are the watched pods of k that fail and belong to the
// workload (a selector alone also matches strays); nil when not watched.
func (c *cluster) failingPods(k model.Key, s *scope, we *wire.WorkloadEntry) []model.PodFailure {
	c.pods.mu.Lock()
	w := c.pods.byKey[k]
	c.pods.mu.Unlock()
	if w == nil {
		return nil
	}
	owners := podOwners(s, k, we) // only for watched pods: a healthy fleet watches none
	var out []model.PodFailure
	for _, obj := range w.inf.GetStore().List() {
		pe, ok := obj.(*wire.PodEntry)
		if !ok || pe.OwnerKind != owners.kind || !owners.uids[pe.OwnerUID] {
			continue
		}
		out = append(out, pe.Failures...)
	}
	return out
}

// WaitPodWatches waits until the pod watches started so far have listed
// their pods (or ctx ends), for one-shot commands that read one snapshot.
// It reports whether there were any.
func (f *Fleet) WaitPodWatches(ctx context.Context) bool {
	var syncs []cache.InformerSynced
	for _, c := range f.clusters {
		c.pods.mu.Lock()
		for _, w := range c.pods.byKey {
			syncs = append(syncs, w.inf.HasSynced)
		}
		c.pods.mu.Unlock()
	}
	if len(syncs) == 0 {
		return false
	}
	return cache.WaitForCacheSync(ctx.Done(), syncs...)
}
