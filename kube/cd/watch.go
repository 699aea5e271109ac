package kube

import (
	"context"
	"fmt"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// CD Applications (Hanzo CD, an Argo CD fork, or plain Argo CD) say whether
// each App CR matches git. Discovery tells which Application kinds the
// cluster serves, always by full resource name: Hanzo CD's short names
// app/apps collide with the App's. Each served kind is watched by one
// informer (cluster-wide, else in the kind's home namespace); any change
// re-evaluates the cluster's rows. Nothing is polled.

// CDKind is an Application resource to look for, and the namespace its CD
// keeps Applications in when the identity may not list them cluster-wide.
type CDKind struct {
	GVR       schema.GroupVersionResource
	Namespace string
}

// DefaultCDKinds are Hanzo CD's Application, then upstream Argo CD's.
var DefaultCDKinds = []CDKind{
	{GVR: schema.GroupVersionResource{Group: "apps.hanzo.ai", Version: "v1alpha1", Resource: "applications"}, Namespace: "hanzo-cd"},
	{GVR: schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}, Namespace: "argocd"},
}

// ParseCDKind reads "applications.apps.hanzo.ai/v1alpha1" (resource.group/
// version, the version defaulting to v1alpha1) with an optional
// "@namespace" fallback.
func ParseCDKind(s string) (CDKind, error) {
	rest, ns, _ := strings.Cut(s, "@")
	rg, version, ok := strings.Cut(rest, "/")
	if !ok {
		version = "v1alpha1"
	}
	resource, group, ok := strings.Cut(rg, ".")
	if !ok || resource == "" || group == "" || version == "" {
		return CDKind{}, fmt.Errorf("CD kind %q: want resource.group[/version][@namespace], e.g. applications.apps.hanzo.ai/v1alpha1", s)
	}
	return CDKind{GVR: schema.GroupVersionResource{Group: group, Version: version, Resource: resource}, Namespace: ns}, nil
}

// cdEntry is a decoded Application in an informer's cache.
type cdEntry struct {
	wire.EntryMeta
	App      model.CDApplication
	Deleting bool // a deletionTimestamp: going (cd_terminating.go)
}

func (e *cdEntry) DeepCopyObject() runtime.Object { c := *e; return &c }

// cdWatch is a cluster's CD state: why it cannot tell (a GitWhy constant),
// or the informers of the served, readable kinds.
type cdWatch struct {
	why  string
	infs []cache.SharedIndexInformer
	// install: kinds whose CRD is watched because none was served at setup
	// (cd_install.go); empty when CRDs may not be watched.
	install []CDKind
	// unfollowed: CRDs (by name) of kinds not served whose CRD may not be
	// watched: installed later, they are not read until a restart.
	unfollowed []string
	served     map[schema.GroupVersionResource]bool // kinds served and answering at set-up
	run        cdRun                                // its informers' lifetime (cd_uninstall.go)
	deletions  chan schema.GroupVersionResource     // kinds whose Applications went, to check (cd_terminating.go)

	mu     sync.Mutex
	dirty  bool
	view   model.CDView
	charts map[model.Key]*model.CDApplication // chart-plane rows (no App CR)
	ready  bool                               // the view was built once
}

// setupCDWith is setupCD with the kinds in known known to be served (true:
// their CRD was seen established) or not (false: being deleted) instead of
// asked of discovery.
func (c *cluster) setupCDWith(ctx context.Context, known map[schema.GroupVersionResource]bool) (*cdWatch, []string) {
	w := &cdWatch{dirty: true, served: map[schema.GroupVersionResource]bool{}, deletions: make(chan schema.GroupVersionResource, 4)}
	var notices []string
	served, forbidden, undiscovered := 0, 0, 0
	for _, k := range c.cdKinds() {
		ok, told := known[k.GVR]
		var err error
		if !told {
			ok, err = c.servesResource(k.GVR)
		}
		if err != nil { // not "not served": we could not tell
			undiscovered++
			notices = append(notices, fmt.Sprintf("%s: discovery failed (%s): git state unknown", k.GVR.GroupResource(), errText(err)))
			continue
		}
		if !ok {
			continue
		}
		served++
		ns, err := c.cdScope(ctx, k)
		if apierrors.IsNotFound(err) { // served by discovery (or a CRD just established), not answering yet
			served--
			continue
		}
		w.served[k.GVR] = true
		if err != nil {
			forbidden++
			notices = append(notices, fmt.Sprintf("%s: Applications not readable (%s): git state unknown", k.GVR.GroupResource(), errText(err)))
			continue
		}
		inf, err := c.newCDInformer(w, k.GVR, ns)
		if err != nil {
			notices = append(notices, err.Error())
			forbidden++
			continue
		}
		w.infs = append(w.infs, inf)
	}
	switch {
	case served == 0 && undiscovered > 0:
		w.why = model.GitWhyUndiscovered
	case served == 0:
		w.why = model.GitWhyNoKind
	case len(w.infs) == 0 && forbidden > 0:
		w.why = model.GitWhyForbidden
	}
	return w, notices
}

// servesResource asks discovery for the group/version's resources and looks
// for the full resource name (never a short name). A group/version that is
// not served (404) is not an error.
func (c *cluster) servesResource(gvr schema.GroupVersionResource) (bool, error) {
	list, err := c.clients.Kube.Discovery().ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, r := range list.APIResources {
		if r.Name == gvr.Resource {
			return true, nil
		}
	}
	return false, nil
}

// cdScope is where the kind's Applications can be listed: "" (all
// namespaces), else the kind's home namespace.
func (c *cluster) cdScope(ctx context.Context, k CDKind) (string, error) {
	res := c.clients.Dynamic.Resource(k.GVR)
	_, err := res.List(ctx, metav1.ListOptions{Limit: 1})
	if err == nil {
		return "", nil
	}
	if apierrors.IsForbidden(err) && k.Namespace != "" {
		if _, err2 := res.Namespace(k.Namespace).List(ctx, metav1.ListOptions{Limit: 1}); err2 == nil {
			return k.Namespace, nil
		}
	}
	return "", err
}

func (c *cluster) newCDInformer(w *cdWatch, gvr schema.GroupVersionResource, ns string) (cache.SharedIndexInformer, error) {
	ri := c.clients.Dynamic.Resource(gvr).Namespace(ns)
	what := gvr.GroupResource().String()
	lw := &observedLW{id: ns + "/" + what, conn: c.conn,
		list: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			l, err := ri.List(ctx, o)
			return l, c.cdCall(w, err)
		},
		watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			wi, err := ri.Watch(ctx, o)
			return wi, c.cdCall(w, err)
		},
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(c.clients.Dynamic),
	}
	w.run.ids = append(w.run.ids, lw.id)
	inf, _, err := c.newInformer(informerSpec{what: what, example: &unstructuredExample, lw: lw,
		transform: transformCDApplication(c.name, gvr.Group), key: func(any) (string, string) { return "", "" }})
	if err != nil {
		return nil, err
	}
	// Any Application change may move any row of the cluster (one
	// Application lists them all), so the cluster's rows are re-evaluated.
	changed := func(any) { c.cdChanged() } // a deletion: checked against the kind's CRD first
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: changed, DeleteFunc: func(any) { w.cdDeleted(gvr) },
		UpdateFunc: func(old, cur any) {
			if e, ok := cur.(*cdEntry); ok && e.Deleting {
				w.cdDeleted(gvr)
				return
			}
			om, ok1 := wire.MetaOf(old)
			cm, ok2 := wire.MetaOf(cur)
			if !ok1 || !ok2 || om.GetResourceVersion() != cm.GetResourceVersion() {
				c.cdChanged()
			}
		},
	}); err != nil {
		return nil, fmt.Errorf("%s informer: add handler: %w", what, err)
	}
	return inf, nil
}

func transformCDApplication(cluster, group string) func(any) (any, error) {
	return func(obj any) (any, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, nil
		}
		e := &cdEntry{App: wire.DecodeCDApplication(cluster, group, u.Object), Deleting: u.GetDeletionTimestamp() != nil}
		e.EntryMeta = wire.TrimmedMeta(u)
		return e, nil
	}
}

// cdChanged notes that the view must be rebuilt; the next snapshot does it
// (refreshCD) and re-evaluates the rows.
func (c *cluster) cdChanged() {
	c.mu.RLock()
	w := c.cd
	c.mu.RUnlock()
	if w != nil {
		w.mu.Lock()
		w.dirty = true
		w.mu.Unlock()
	}
	c.fleet.signal()
}

func (c *cluster) cdWatch() *cdWatch {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cd
}

// refreshCD rebuilds the CD view after an Application changed and returns
// the rows to re-evaluate: the App rows whose git state moved (one
// Application may list them all) and the chart rows before and after.
func (c *cluster) refreshCD() []model.Key {
	w := c.cdWatch()
	if w == nil || w.why != "" {
		return nil
	}
	w.mu.Lock()
	if !w.dirty {
		w.mu.Unlock()
		return nil
	}
	var apps []*model.CDApplication
	for _, inf := range w.infs {
		for _, obj := range inf.GetStore().List() {
			if e, ok := obj.(*cdEntry); ok {
				a := e.App // entries are never mutated; the copy keeps the view independent of the cache
				apps = append(apps, &a)
			}
		}
	}
	old, oldView, wasReady := w.charts, w.view, w.ready
	w.view, w.dirty, w.ready = model.NewCDView("", apps), false, true
	w.view.Unfollowed = w.unfollowed
	w.charts = map[model.Key]*model.CDApplication{}
	for _, a := range w.view.Apps {
		if !model.IsChartApplication(a) {
			continue
		}
		for _, k := range model.ChartRowKeys(a) {
			if _, dup := w.charts[k]; !dup {
				w.charts[k] = a
			}
		}
	}
	view := w.view
	w.mu.Unlock()
	var keys []model.Key
	for _, k := range c.appKeys() { // the new chart rows included
		if !wasReady || c.isChartRow(k) || old[k] != nil ||
			view.GitChanged(oldView, appsGVR.Group, "App", k.Namespace, k.Name) ||
			view.GitChanged(oldView, appsGVR.Group, "Service", k.Namespace, k.Name) {
			keys = append(keys, k)
		}
	}
	for k := range old {
		keys = append(keys, k)
	}
	return keys
}
