// Package podwatch runs a cluster's pod watches: one informer on the pods
// of each workload that rolls out or is unready, by its namespace and
// selector, so a healthy fleet watches no pods and running pods are never
// all cached. It reaches its cluster only through the Host it is given.
package podwatch

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// DefaultMax bounds the pod watches of one cluster. Beyond the bound,
// further workloads wait for a free watch and the cluster's notice says how
// many do: their failing pods are not named (their rollout still ends
// "stuck" at its progress deadline).
const DefaultMax = 50

// Host is what a cluster does for its pod watches.
type Host interface {
	// PodsAllowed reports whether pods may be listed in namespace ns.
	PodsAllowed(ns string) bool
	// NewInformer builds (does not run) an informer on the pods of k's
	// namespace that match selector; it reports to the connection state as
	// id and its events mark row k.
	NewInformer(id string, k model.Key, selector string) (cache.SharedIndexInformer, error)
	// Forget drops a stopped informer from the connection state.
	Forget(id string)
	// SetNote sets the cluster's notice on a topic ("" clears it).
	SetNote(topic, text string)
	// MarkRows rebuilds rows at the next snapshot.
	MarkRows(keys []model.Key)
}

// watch is the informer on one workload's pods.
type watch struct {
	selector string
	id       string // the connection state's informer id
	inf      cache.SharedIndexInformer
	stop     context.CancelFunc
}

// Set is a cluster's pod watches, keyed by row.
type Set struct {
	host    Host
	mu      sync.Mutex
	max     int             // watches at once
	ctx     context.Context // the cluster's run; nil before it starts
	byKey   map[model.Key]*watch
	waiting map[model.Key]bool // wanted, beyond the bound
}

// New is a cluster's set of at most max pod watches.
func New(host Host, max int) *Set {
	return &Set{host: host, max: max, byKey: map[model.Key]*watch{}, waiting: map[model.Key]bool{}}
}

// Start lets watches run under ctx (the cluster's run).
func (p *Set) Start(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
}

// Count is the number of pod watches running, and of rows that want one
// beyond the bound.
func (p *Set) Count() (running, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byKey), len(p.waiting)
}

// Waiting reports whether row k wants a watch beyond the bound.
func (p *Set) Waiting(k model.Key) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waiting[k]
}

// Want starts or stops the pod watch of row k: started while its workload
// (with pod selector sel) rolls out or is unready, stopped once it is
// healthy, gone, or its selector changed.
func (p *Set) Want(k model.Key, sel string, want bool) {
	want = want && sel != "" && p.host.PodsAllowed(k.Namespace)
	p.mu.Lock()
	w := p.byKey[k]
	if w != nil && (!want || w.selector != sel) {
		delete(p.byKey, k)
		w.stop()
		p.host.Forget(w.id)
		w = nil
	}
	delete(p.waiting, k)
	var next []model.Key
	switch {
	case !want && len(p.waiting) > 0 && len(p.byKey) < p.max:
		next = slices.Collect(maps.Keys(p.waiting))
	case want && w == nil && p.ctx != nil && len(p.byKey) < p.max:
		if w = p.start(k, sel); w != nil {
			p.byKey[k] = w
		}
	case want && w == nil:
		p.waiting[k] = true
	}
	waiting, bound := len(p.waiting), p.max
	p.mu.Unlock()
	p.host.SetNote("pods", waitingNote(waiting, bound))
	if len(next) > 0 { // a watch is free: those waiting are reconsidered
		p.host.MarkRows(next)
	}
}

func waitingNote(n, bound int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d unready workloads wait for a pod watch (at most %d at once): their failing pods are not named yet", n, bound)
}

// start runs an informer on the pods of k's workload. Callers hold p.mu.
func (p *Set) start(k model.Key, sel string) *watch {
	id := k.Namespace + "/pods of " + k.Name
	inf, err := p.host.NewInformer(id, k, sel)
	if err != nil {
		p.host.SetNote("pods-error", err.Error())
		return nil
	}
	wctx, stop := context.WithCancel(p.ctx)
	go inf.RunWithContext(wctx)
	return &watch{selector: sel, id: id, inf: inf, stop: stop}
}

// Pods are the pods the watch of row k holds (any the selector matches,
// strays included); watched is false when k has no watch.
func (p *Set) Pods(k model.Key) (pods []*wire.PodEntry, watched bool) {
	p.mu.Lock()
	w := p.byKey[k]
	p.mu.Unlock()
	if w == nil {
		return nil, false
	}
	for _, obj := range w.inf.GetStore().List() {
		if pe, ok := obj.(*wire.PodEntry); ok {
			pods = append(pods, pe)
		}
	}
	return pods, true
}

// Listed reports, for each watch started so far, whether it has listed its
// pods.
func (p *Set) Listed() []cache.InformerSynced {
	p.mu.Lock()
	defer p.mu.Unlock()
	syncs := make([]cache.InformerSynced, 0, len(p.byKey))
	for _, w := range p.byKey {
		syncs = append(syncs, w.inf.HasSynced)
	}
	return syncs
}
