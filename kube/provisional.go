package kube

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

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
	apps     map[model.Key]*appEntry
	services map[model.Key]*appEntry
}

func newProvisional() *provisional {
	p := &provisional{apps: map[model.Key]*appEntry{}, services: map[model.Key]*appEntry{}}
	p.open.Store(true)
	return p
}

func (p *provisional) of(e *appEntry) map[model.Key]*appEntry {
	if e.App.Kind == "Service" {
		return p.services
	}
	return p.apps
}

// put records e; it reports whether that changed anything.
func (p *provisional) put(k model.Key, e *appEntry) bool {
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
func (p *provisional) get(k model.Key) *appEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.apps[k]; e != nil {
		return e
	}
	return p.services[k]
}

// getKind is the entry seen for k in one resource ("apps" or "services").
func (p *provisional) getKind(what string, k model.Key) *appEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if what == "services" {
		return p.services[k]
	}
	return p.apps[k]
}

// same returns the entry already decoded for u (same key and resource
// version), so the cache does not decode it again.
func (p *provisional) same(k model.Key, rv string) *appEntry {
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
	for _, m := range []map[model.Key]*appEntry{p.apps, p.services} {
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
	p.apps, p.services = map[model.Key]*appEntry{}, map[model.Key]*appEntry{}
	return keys
}

// entryOf is a listed or watched App as the cache holds it: already decoded,
// or decoded now from the unstructured object.
func (c *cluster) entryOf(obj any) *appEntry {
	switch o := obj.(type) {
	case *appEntry:
		return o
	case *unstructured.Unstructured:
		out, err := transformApp(c.name)(o)
		if err != nil {
			return nil
		}
		e, _ := out.(*appEntry)
		return e
	}
	return nil
}

// noteSeen records an App seen before the sync and marks its row.
func (c *cluster) noteSeen(e *appEntry) {
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
		if e, ok := out.(*appEntry); ok && err == nil {
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

// endProvisional is called once the cluster has synced: every row it showed
// and every cached App is rebuilt from the caches (a row whose App vanished
// meanwhile goes).
func (c *cluster) endProvisional() {
	keys := c.prov.close()
	keys = append(keys, c.appKeys()...)
	c.fleet.markDirtyKeys(keys)
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

// provisionalRow builds row k of a syncing cluster from the App seen so far
// (ok false: none seen yet). Its workload is taken from the cache once that
// scope's workload lists are complete, and is pending until then.
func (f *Fleet) provisionalRow(c *cluster, k model.Key, now time.Time) (model.AppView, bool) {
	app, wl, ok := c.observeSyncing(k)
	if !ok { // not seen yet, or its App is gone from a complete cache
		f.store.Delete(k)
		return model.AppView{}, false
	}
	return model.Build(app, wl, f.release(app), now), true // git state: unknown until synced
}

func (c *cluster) observeSyncing(k model.Key) (model.AppObject, *model.Workload, bool) {
	s := c.scopeFor(k.Namespace)
	if s == nil {
		return model.AppObject{}, nil, false
	}
	var ae *appEntry
	for _, what := range []string{"apps", "services"} {
		if s.synced(what) { // the cache is complete: it is the truth (a deleted App is gone)
			ae, _ = s.get(what, k.Namespace, k.Name).(*appEntry)
		} else {
			ae = c.prov.getKind(what, k)
		}
		if ae != nil {
			break
		}
	}
	if ae == nil {
		return model.AppObject{}, nil, false
	}
	app := ae.App
	app.NamespaceLabels = c.namespaceLabelsOf(k.Namespace)
	if s.synced("deployments") && s.synced("statefulsets") && s.synced("replicasets") {
		return app, c.observeWorkload(s, k, app), true
	}
	kind := model.ExpectedKind(app.Role)
	if model.ClassOfApp(app).MakesWorkload() {
		if u := c.unreadable(s, k.Namespace, k.Name, kind); u != nil {
			return app, u, true
		}
	}
	return app, &model.Workload{Kind: kind, Name: k.Name, Pending: pendingWords(kind, s.ns)}, true
}

// pendingWords says why a workload is not known yet.
func pendingWords(kind model.WorkloadKind, ns string) string {
	what := "Workloads"
	if kind != model.KindNone {
		what = string(kind) + "s"
	}
	if ns != "" {
		what += " in " + ns
	}
	return what + " not listed yet (cluster syncing)"
}

// synced reports whether the scope's informer of what has its first list
// complete; an informer not run (not allowed) has nothing to wait for.
func (s *scope) synced(what string) bool {
	inf, ok := s.inf[what]
	return !ok || inf.HasSynced()
}

// whenWorkloadsListed marks the provisional rows of scope s again once its
// workload lists are complete, so they show their workloads before the
// whole cluster has synced.
func (c *cluster) whenWorkloadsListed(ctx context.Context, s *scope) {
	var syncs []cache.InformerSynced
	for _, what := range []string{"deployments", "statefulsets", "replicasets"} {
		if inf, ok := s.inf[what]; ok {
			syncs = append(syncs, inf.HasSynced)
		}
	}
	if !cache.WaitForCacheSync(ctx.Done(), syncs...) || !c.prov.open.Load() {
		return
	}
	c.fleet.markDirtyKeys(c.prov.keysIn(s.ns))
}
