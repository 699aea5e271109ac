package kube

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

// While a cluster syncs, its informers call no handler until a whole list
// has arrived (a streaming list fills a temporary store and replaces the
// cache at the end), so rows would wait for the slowest list. provisional
// keeps the Apps and Services seen on the way — decoded once, by the
// informer's own transform, or from the LIST pages of the fallback — so
// Snapshot can show them at once, their workloads pending until listed.
type provisional struct {
	open     atomic.Bool // until the cluster has synced
	mu       sync.Mutex
	apps     map[model.Key]*wire.AppEntry
	services map[model.Key]*wire.AppEntry
	// final holds the rows built as the sync will build them (workloads
	// listed, no CD to wait for), by the entry they were built from: the
	// sync rebuilds only the others.
	final map[model.Key]*wire.AppEntry
}

func newProvisional() *provisional {
	p := &provisional{apps: map[model.Key]*wire.AppEntry{}, services: map[model.Key]*wire.AppEntry{}, final: map[model.Key]*wire.AppEntry{}}
	p.open.Store(true)
	return p
}

func (p *provisional) of(e *wire.AppEntry) map[model.Key]*wire.AppEntry {
	if e.App.Kind == "Service" {
		return p.services
	}
	return p.apps
}

// put records e; it reports whether that changed anything.
func (p *provisional) put(k model.Key, e *wire.AppEntry) bool {
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
func (p *provisional) get(k model.Key) *wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.apps[k]; e != nil {
		return e
	}
	return p.services[k]
}

// getKind is the entry seen for k in one resource ("apps" or "services").
func (p *provisional) getKind(what string, k model.Key) *wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if what == "services" {
		return p.services[k]
	}
	return p.apps[k]
}

// same returns the entry already decoded for u (same key and resource
// version), so the cache does not decode it again.
func (p *provisional) same(k model.Key, rv string) *wire.AppEntry {
	e := p.get(k)
	if e == nil || e.ResourceVersion != rv {
		return nil
	}
	return e
}

// keysIn lists the keys seen in namespace ns ("" = all).
func (p *provisional) keysIn(ns string) []model.Key {
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

// close ends the provisional phase and returns the keys it showed.
func (p *provisional) close() []model.Key {
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

// builtFinal records that row k was built from e as the sync would build it
// (e nil: it was not).
func (p *provisional) builtFinal(k model.Key, e *wire.AppEntry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e == nil {
		delete(p.final, k)
	} else {
		p.final[k] = e
	}
}

// takeFinal returns and forgets the rows built final.
func (p *provisional) takeFinal() map[model.Key]*wire.AppEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.final
	p.final = map[model.Key]*wire.AppEntry{}
	return f
}

// entryOf is a listed or watched App as the cache holds it: already decoded,
// or decoded now from the unstructured object.
func (c *cluster) entryOf(obj any) *wire.AppEntry {
	switch o := obj.(type) {
	case *wire.AppEntry:
		return o
	case *unstructured.Unstructured:
		out, err := wire.TransformApp(c.name)(o)
		if err != nil {
			return nil
		}
		e, _ := out.(*wire.AppEntry)
		return e
	}
	return nil
}

// noteSeen records an App seen before the sync and marks its row.
func (c *cluster) noteSeen(e *wire.AppEntry) {
	if e == nil || !c.prov.open.Load() {
		return
	}
	k := model.Key{Cluster: c.name, Namespace: e.Namespace, Name: e.Name}
	if c.prov.put(k, e) {
		c.fleet.markDirty(k) // a signal is cheap: the board takes at most ~30 snapshots a second
	}
}

// seeingTransform wraps the App/Service informers' transform: while the
// cluster syncs, what it decodes is recorded, and what a LIST page already
// decoded is reused.
func (c *cluster) seeingTransform(inner cache.TransformFunc) cache.TransformFunc {
	return func(obj any) (any, error) {
		if !c.prov.open.Load() {
			return inner(obj)
		}
		if u, ok := obj.(*unstructured.Unstructured); ok {
			k := model.Key{Cluster: c.name, Namespace: u.GetNamespace(), Name: u.GetName()}
			if e := c.prov.same(k, u.GetResourceVersion()); e != nil {
				return e, nil
			}
		}
		out, err := inner(obj)
		if e, ok := out.(*wire.AppEntry); ok && err == nil {
			c.noteSeen(e)
		}
		return out, err
	}
}

// seeList records the Apps of a LIST page (the fallback when the server
// does not stream lists): the reflector gathers every page before the cache
// sees any.
func (c *cluster) seeList(obj runtime.Object) {
	if !c.prov.open.Load() {
		return
	}
	err := meta.EachListItem(obj, func(item runtime.Object) error {
		c.noteSeen(c.entryOf(item))
		return nil
	})
	if err != nil {
		c.conn.setNote("provisional", fmt.Sprintf("Apps listed while syncing could not be read: %v", err))
	}
}

// endProvisional is called once the cluster has synced: every row is rebuilt
// from the caches (a row whose App vanished meanwhile goes), but those built
// already as the sync would build them, from the entry the cache holds.
func (c *cluster) endProvisional() {
	var keys []model.Key
	for _, k := range c.prov.close() {
		if c.cachedEntry(k) == nil { // its App is gone: the rebuild deletes the row
			keys = append(keys, k)
		}
	}
	final := c.prov.takeFinal()
	for _, k := range c.appKeys() { // a row built final from the entry the cache holds stays
		if e := final[k]; e == nil || c.cachedEntry(k) != e {
			keys = append(keys, k)
		}
	}
	c.fleet.markDirtyKeys(keys)
}

// cachedEntry is the App (else the Service) the cache holds for k.
func (c *cluster) cachedEntry(k model.Key) *wire.AppEntry {
	s := c.scopeFor(k.Namespace)
	if s == nil {
		return nil
	}
	if e, ok := s.get("apps", k.Namespace, k.Name).(*wire.AppEntry); ok {
		return e
	}
	e, _ := s.get("services", k.Namespace, k.Name).(*wire.AppEntry)
	return e
}

// markDirtyKeys rebuilds rows ks at the next snapshot.
func (f *Fleet) markDirtyKeys(ks []model.Key) {
	f.mu.Lock()
	for _, k := range ks {
		f.dirty[k] = struct{}{}
	}
	f.mu.Unlock()
	f.signal()
}
