package kube

import (
	"context"
	"maps"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// nsLabels watches the namespaces' labels (a tenant namespace's
// hanzo.ai/org names its real org) where the identity may list namespaces.
// Only names and labels are kept.
type nsLabels struct {
	mu        sync.RWMutex
	labels    map[string]map[string]string
	createdAt map[string]time.Time
	readable  bool
	hasSynced func() bool
}

// created lists the namespaces seen, with their creation times.
func (n *nsLabels) created() map[string]time.Time {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return maps.Clone(n.createdAt)
}

func (n *nsLabels) get(ns string) map[string]string {
	if n == nil {
		return nil
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.labels[ns]
}

// watchNamespaceLabels starts the namespace informer; it returns a notice
// when the labels cannot be read (rows then take the org from the App or
// its image).
func (c *cluster) watchNamespaceLabels(ctx context.Context) string {
	var lw cache.ListerWatcher
	if c.clients.proxy != nil { // the member's share of the proxy's namespaces
		lw, _ = c.proxiedLW("namespaces")
	} else {
		if _, err := c.clients.Kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			return "namespace labels not readable (" + errText(err) + "): a row's org comes from the App or its image"
		}
		nsc := c.clients.Kube.CoreV1().Namespaces()
		// The typed client: fakes (the demo) have no REST client, and serve
		// no streaming list: the reflector must be told, or the namespaces
		// are never listed.
		lw = cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
			ListWithContextFunc:  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return nsc.List(ctx, o) },
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return nsc.Watch(ctx, o) },
		}, c.clients.Kube)
	}
	n := &nsLabels{labels: map[string]map[string]string{}, createdAt: map[string]time.Time{}, readable: true}
	inf := cache.NewSharedIndexInformer(lw, &corev1.Namespace{}, 0, cache.Indexers{})
	set := func(obj any) {
		ns, ok := obj.(*corev1.Namespace)
		if !ok {
			return
		}
		n.mu.Lock()
		changed := !maps.Equal(n.labels[ns.Name], ns.Labels)
		_, known := n.createdAt[ns.Name]
		n.labels[ns.Name] = maps.Clone(ns.Labels)
		n.createdAt[ns.Name] = ns.CreationTimestamp.Time
		n.mu.Unlock()
		if changed {
			c.markNamespaceDirty(ns.Name)
		}
		if !known {
			c.follow.signal()
		}
	}
	remove := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if ns, ok := obj.(*corev1.Namespace); ok {
			n.mu.Lock()
			delete(n.labels, ns.Name)
			delete(n.createdAt, ns.Name)
			n.mu.Unlock()
			c.follow.signal()
		}
	}
	reg, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: set, UpdateFunc: func(_, cur any) { set(cur) }, DeleteFunc: remove,
	})
	if err != nil {
		return "namespace labels: " + err.Error()
	}
	_ = inf.SetTransform(func(obj any) (any, error) { // names and labels only
		if ns, ok := obj.(*corev1.Namespace); ok {
			return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns.Name, Labels: ns.Labels,
				ResourceVersion: ns.ResourceVersion, CreationTimestamp: ns.CreationTimestamp}}, nil
		}
		return obj, nil
	})
	n.hasSynced = reg.HasSynced // the labels are in n once the handler has seen the list
	c.mu.Lock()
	c.nsLabels = n
	c.mu.Unlock()
	go inf.RunWithContext(ctx)
	return ""
}

// nsLabelsWatch is the namespace watch, nil when namespaces are not readable.
func (c *cluster) nsLabelsWatch() *nsLabels {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.nsLabels
}

// namespaceLabelsOf is what the watch knows of ns, nil when not watched.
func (c *cluster) namespaceLabelsOf(ns string) map[string]string {
	c.mu.RLock()
	n := c.nsLabels
	c.mu.RUnlock()
	return n.get(ns)
}

// markNamespaceDirty rebuilds, at the next snapshot, the rows of namespace
// ns in this cluster only (its labels changed): a namespace list arriving
// late from one slow cluster must not rebuild every row of every other.
func (c *cluster) markNamespaceDirty(ns string) {
	keys := c.appKeysIn(ns)
	if c.prov.Open() { // rows seen while the lists stream
		keys = append(keys, c.prov.KeysIn(ns)...)
	}
	c.fleet.markDirtyKeys(keys)
}
