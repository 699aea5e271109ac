// Package provisional keeps the Apps and Services a cluster sees while it
// syncs. Its informers call no handler until a whole list has arrived (a
// streaming list fills a temporary store and replaces the cache at the
// end), so rows would wait for the slowest list. Seen keeps what comes on
// the way — decoded once, by the informer's own transform, or from the LIST
// pages of the fallback — so the cluster can show those rows at once, their
// workloads pending until listed. It reaches its cluster only through the
// Host it is given.
package provisional

import (
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// Host is what a cluster does for the Apps seen while it syncs.
type Host interface {
	// MarkRow rebuilds row k at the next snapshot.
	MarkRow(k model.Key)
	// SetNote sets the cluster's notice on a topic ("" clears it).
	SetNote(topic, text string)
}

// Seen is the Apps and Services one cluster has seen while it syncs.
type Seen struct {
	cluster  string
	host     Host
	open     atomic.Bool // until the cluster has synced
	mu       sync.Mutex
	apps     map[model.Key]*wire.AppEntry
	services map[model.Key]*wire.AppEntry
	// final holds the rows built as the sync will build them (workloads
	// listed, no CD to wait for), by the entry they were built from: the
	// sync rebuilds only the others.
	final map[model.Key]*wire.AppEntry
}

// New is an open Seen for the named cluster.
func New(cluster string, host Host) *Seen {
	p := &Seen{cluster: cluster, host: host,
		apps: map[model.Key]*wire.AppEntry{}, services: map[model.Key]*wire.AppEntry{}, final: map[model.Key]*wire.AppEntry{}}
	p.open.Store(true)
	return p
}

// Open reports whether the cluster is still syncing.
func (p *Seen) Open() bool { return p.open.Load() }

func (p *Seen) of(e *wire.AppEntry) map[model.Key]*wire.AppEntry {
	if e.App.Kind == "Service" {
		return p.services
	}
	return p.apps
}

// Put records e; it reports whether that changed anything.
func (p *Seen) Put(k model.Key, e *wire.AppEntry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.of(e)
	if m[k] == e {
		return false
	}
	m[k] = e
	return true
}

// get is the App (else the Service) seen for k.
func (p *Seen) get(k model.Key) *wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.apps[k]; e != nil {
		return e
	}
	return p.services[k]
}

// Of is the entry seen for k in one resource ("apps" or "services").
func (p *Seen) Of(what string, k model.Key) *wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if what == "services" {
		return p.services[k]
	}
	return p.apps[k]
}

// same returns the entry already decoded for u (same key and resource
// version), so the cache does not decode it again.
func (p *Seen) same(k model.Key, rv string) *wire.AppEntry {
	e := p.get(k)
	if e == nil || e.ResourceVersion != rv {
		return nil
	}
	return e
}

// KeysIn lists the keys seen in namespace ns ("" = all).
func (p *Seen) KeysIn(ns string) []model.Key {
	p.mu.Lock()
	defer p.mu.Unlock()
	var keys []model.Key
	for _, m := range []map[model.Key]*wire.AppEntry{p.apps, p.services} {
		for k := range m {
			if ns == "" || k.Namespace == ns {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// Close ends the provisional phase and returns the keys it showed.
func (p *Seen) Close() []model.Key {
	p.open.Store(false)
	p.mu.Lock()
	defer p.mu.Unlock()
	keys := make([]model.Key, 0, len(p.apps)+len(p.services))
	for k := range p.apps {
		keys = append(keys, k)
	}
	for k := range p.services {
		keys = append(keys, k)
	}
	p.apps, p.services = map[model.Key]*wire.AppEntry{}, map[model.Key]*wire.AppEntry{}
	return keys
}

// BuiltFinal records that row k was built from e as the sync would build it
// (e nil: it was not).
func (p *Seen) BuiltFinal(k model.Key, e *wire.AppEntry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e == nil {
		delete(p.final, k)
	} else {
		p.final[k] = e
	}
}

// TakeFinal returns and forgets the rows built final.
func (p *Seen) TakeFinal() map[model.Key]*wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.final
	p.final = map[model.Key]*wire.AppEntry{}
	return f
}

// entryOf is a listed or watched App as the cache holds it: already decoded,
// or decoded now from the unstructured object.
func (p *Seen) entryOf(obj any) *wire.AppEntry {
	switch o := obj.(type) {
	case *wire.AppEntry:
		return o
	case *unstructured.Unstructured:
		out, err := wire.TransformApp(p.cluster)(o)
		if err != nil {
			return nil
		}
		e, _ := out.(*wire.AppEntry)
		return e
	}
	return nil
}

// note records an App seen before the sync and marks its row.
func (p *Seen) note(e *wire.AppEntry) {
	if e == nil || !p.open.Load() {
		return
	}
	k := model.Key{Cluster: p.cluster, Namespace: e.Namespace, Name: e.Name}
	if p.Put(k, e) {
		p.host.MarkRow(k) // a signal is cheap: the board takes at most ~30 snapshots a second
	}
}

// Transform wraps the App/Service informers' transform: while the cluster
// syncs, what it decodes is recorded, and what a LIST page already decoded
// is reused.
func (p *Seen) Transform(inner cache.TransformFunc) cache.TransformFunc {
	return func(obj any) (any, error) {
		if !p.open.Load() {
			return inner(obj)
		}
		if u, ok := obj.(*unstructured.Unstructured); ok {
			k := model.Key{Cluster: p.cluster, Namespace: u.GetNamespace(), Name: u.GetName()}
			if e := p.same(k, u.GetResourceVersion()); e != nil {
				return e, nil
			}
		}
		out, err := inner(obj)
		if e, ok := out.(*wire.AppEntry); ok && err == nil {
			p.note(e)
		}
		return out, err
	}
}

// SeeList records the Apps of a LIST page (the fallback when the server
// does not stream lists): the reflector gathers every page before the cache
// sees any.
func (p *Seen) SeeList(obj runtime.Object) {
	if !p.open.Load() {
		return
	}
	err := meta.EachListItem(obj, func(item runtime.Object) error {
		p.note(p.entryOf(item))
		return nil
	})
	if err != nil {
		p.host.SetNote("provisional", fmt.Sprintf("Apps listed while syncing could not be read: %v", err))
	}
}
