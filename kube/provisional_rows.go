package kube

import (
	"context"
	"time"

	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/provisional"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// The rows of a syncing cluster, from the Apps seen so far (kube/provisional).

// provisionalRow builds row k of a syncing cluster from the App seen so far
// (ok false: none seen yet). Its workload is taken from the cache once that
// scope's workload lists are complete, and is pending until then.
func (f *Fleet) provisionalRow(c *cluster, k model.Key, now time.Time) (model.AppView, bool) {
	app, wl, ae, final := c.observeSyncing(k)
	if ae == nil { // not seen yet, or its App is gone from a complete cache
		c.prov.BuiltFinal(k, nil)
		f.store.Delete(k)
		return model.AppView{}, false
	}
	f.rowsBuilt.Add(1)
	v := model.Build(app, wl, f.release(app), now)
	f.messages.share(v.Drift.Flags)
	if final = final && c.cd.Settled(); !final {
		c.prov.BuiltFinal(k, nil) // git state unknown until synced
		return v, true
	}
	// Built as rebuild would: the sync need not build it again.
	v.Git = c.gitSync(app)
	sel := ""
	if we := c.workloadEntry(c.scopeFor(k.Namespace), k, app.Role); we != nil {
		sel = we.Selector
	}
	c.pods.Want(k, sel, v.WantsPodWatch())
	c.prov.BuiltFinal(k, ae)
	return v, true
}

// builtSynced records row k rebuilt from the complete caches after the sync
// but before endProvisional, which then need not build it a second time.
func (c *cluster) builtSynced(k model.Key) {
	if c.prov.Open() {
		c.prov.BuiltFinal(k, c.cachedEntry(k))
	}
}

// observeSyncing is observe for a syncing cluster: the App seen so far
// (ae nil: none), its workload, pending until listed, and whether the
// workload is as the sync will see it (final).
func (c *cluster) observeSyncing(k model.Key) (app model.AppObject, wl *model.Workload, ae *wire.AppEntry, final bool) {
	s := c.scopeFor(k.Namespace)
	if s == nil {
		return model.AppObject{}, nil, nil, false
	}
	for _, what := range []string{"apps", "services"} {
		if s.synced(what) { // the cache is complete: it is the truth (a deleted App is gone)
			ae, _ = s.get(what, k.Namespace, k.Name).(*wire.AppEntry)
		} else {
			ae = c.prov.Of(what, k)
		}
		if ae != nil {
			break
		}
	}
	if ae == nil {
		return model.AppObject{}, nil, nil, false
	}
	app = ae.App
	app.NamespaceLabels = c.namespaceLabelsOf(k.Namespace)
	if s.synced("deployments") && s.synced("statefulsets") && s.synced("replicasets") {
		return app, c.observeWorkload(s, k, app), ae, true
	}
	kind := model.ExpectedKind(app.Role)
	if model.ClassOfApp(app).MakesWorkload() {
		if u := c.unreadable(s, k.Namespace, k.Name, kind); u != nil {
			return app, u, ae, false
		}
	}
	return app, &model.Workload{Kind: kind, Name: k.Name, Pending: pendingWords(kind, s.ns)}, ae, false
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
// complete, in the cache and through the handler; an informer not run (not
// allowed) has nothing to wait for. (The informer says it has synced as it
// takes the list's last object, before storing it.)
func (s *scope) synced(what string) bool {
	h, ok := s.handled[what]
	return !ok || h()
}

// whenWorkloadsListed marks the provisional rows of scope s again once its
// workload lists are complete, so they show their workloads before the
// whole cluster has synced.
func (c *cluster) whenWorkloadsListed(ctx context.Context, s *scope) {
	var syncs []cache.InformerSynced
	for _, what := range []string{"deployments", "statefulsets", "replicasets"} {
		if h, ok := s.handled[what]; ok {
			syncs = append(syncs, h)
		}
	}
	if !cache.WaitForCacheSync(ctx.Done(), syncs...) {
		return
	}
	select { // the rows are built final only once CD is known (cd.Settled)
	case <-c.extrasSet:
	case <-ctx.Done():
		return
	}
	if !c.prov.Open() {
		return
	}
	c.fleet.markDirtyKeys(c.prov.KeysIn(s.ns))
}

// provHost is what a cluster does for the Apps it sees while it syncs
// (provisional.Host).
type provHost struct{ c *cluster }

var _ provisional.Host = provHost{}

func (h provHost) MarkRow(k model.Key)        { h.c.fleet.markDirty(k) }
func (h provHost) SetNote(topic, text string) { h.c.conn.setNote(topic, text) }

// endProvisional is called once the cluster has synced: every row is rebuilt
// from the caches (a row whose App vanished meanwhile goes), but those built
// already as the sync would build them, from the entry the cache holds.
func (c *cluster) endProvisional() {
	var keys []model.Key
	for _, k := range c.prov.Close() {
		if c.cachedEntry(k) == nil { // its App is gone: the rebuild deletes the row
			keys = append(keys, k)
		}
	}
	final := c.prov.TakeFinal()
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
