package kube

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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

var (
	appsGVR     = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "apps"}
	servicesGVR = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "services"}
)

// observedLW wraps a list/watch pair so that every call reports to the
// cluster's connection state: this is how a stopped API server is noticed
// (the reflector retries refused watches silently, without its error handler).
type observedLW struct {
	id          string
	conn        *connState
	list        func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error)
	watch       func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error)
	unsupported bool // the client (a fake) cannot do watch-list streams
}

func (l *observedLW) List(o metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), o)
}

func (l *observedLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), o)
}

func (l *observedLW) ListWithContext(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	obj, err := l.list(ctx, o)
	l.report(err)
	return obj, err
}

func (l *observedLW) WatchWithContext(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	w, err := l.watch(ctx, o)
	l.report(err)
	return w, err
}

func (l *observedLW) IsWatchListSemanticsUnSupported() bool { return l.unsupported }

func (l *observedLW) report(err error) {
	if err != nil {
		l.conn.callFailed(l.id, err)
	} else {
		l.conn.callOK(l.id)
	}
}

// callError is a call's own error inside the reflector's wrapping ("failed
// to list replicasets: …"): the call (observedLW) and the reflector's error
// handler report one failure, and it must read the same from both, or the
// reason shown flips between two texts on every retry.
func callError(err error) error {
	var status *apierrors.StatusError
	if errors.As(err, &status) {
		return status
	}
	var call *url.Error
	if errors.As(err, &call) {
		return call
	}
	return err
}

// keyFunc maps a cached entry to the row it affects ("" = none).
type keyFunc func(obj any) (namespace, name string)

func ownKey(obj any) (string, string) {
	if m, ok := wire.MetaOf(obj); ok {
		return m.GetNamespace(), m.GetName()
	}
	return "", ""
}

func replicaSetKey(obj any) (string, string) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if e, ok := obj.(*wire.PodSetEntry); ok && e.Owner != "" {
		return e.Namespace, e.Owner
	}
	return "", ""
}

// byOwner indexes ReplicaSets by "<namespace>/<row name>".
const byOwner = "byOwner"

func ownerIndex(key keyFunc) cache.Indexers {
	return cache.Indexers{byOwner: func(obj any) ([]string, error) {
		if ns, name := key(obj); name != "" {
			return []string{ns + "/" + name}, nil
		}
		return nil, nil
	}}
}

// informerSpec describes one informer of a scope.
type informerSpec struct {
	what      string // "apps", "deployments", ...
	example   runtime.Object
	lw        *observedLW
	transform cache.TransformFunc
	key       keyFunc
	indexers  cache.Indexers
	expect    func(context.Context) // counts the objects of the first sync, if it can
	// firstListMarked: the adds of the first list mark no row, because the
	// rows are marked in one go once the handler has had that whole list
	// (whenWorkloadsListed, endProvisional, addScope). Marked one by one, a
	// row was built again for each of its objects' adds, which trail the
	// cache by up to the whole list (at 50,000 Apps ~2.2 builds a row).
	firstListMarked bool
}

// newInformer builds the informer, its transform and its handler. Handlers
// only mark the affected row dirty; the snapshot is built elsewhere. handled
// reports whether the handler has had the whole first list: every object of
// it is then in the cache (the informer hands an object on after storing it).
func (c *cluster) newInformer(s informerSpec) (inf cache.SharedIndexInformer, handled cache.InformerSynced, err error) {
	inf = cache.NewSharedIndexInformerWithOptions(s.lw, s.example, cache.SharedIndexInformerOptions{
		Indexers: s.indexers, ObjectDescription: s.what,
	})
	if err := inf.SetTransform(s.transform); err != nil {
		return nil, nil, fmt.Errorf("%s informer: transform: %w", s.what, err)
	}
	if err := inf.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		c.conn.callFailed(s.lw.id, callError(err))
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}); err != nil {
		return nil, nil, fmt.Errorf("%s informer: watch error handler: %w", s.what, err)
	}
	mark := func(obj any) {
		c.conn.heard()
		if ns, name := s.key(obj); name != "" {
			c.fleet.markDirty(model.Key{Cluster: c.name, Namespace: ns, Name: name})
		}
	}
	reg, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			if isInInitialList && s.firstListMarked {
				c.conn.heard()
				return
			}
			mark(obj)
		},
		UpdateFunc: func(old, cur any) {
			om, ok1 := wire.MetaOf(old)
			cm, ok2 := wire.MetaOf(cur)
			if ok1 && ok2 && om.GetResourceVersion() == cm.GetResourceVersion() {
				c.conn.heard()
				return // a resync: nothing changed
			}
			mark(cur)
			if ns, name := s.key(old); name != "" { // an owner change moves the object between rows
				if ns2, name2 := s.key(cur); ns2 != ns || name2 != name {
					mark(old)
				}
			}
		},
		DeleteFunc: func(obj any) { mark(obj) }, // key functions unwrap tombstones
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s informer: add handler: %w", s.what, err)
	}
	return inf, reg.HasSynced, nil
}

// specsFor lists the informers of one scope (namespace "" = cluster-wide).
func (c *cluster) specsFor(ns string, allowed map[string]bool) []informerSpec {
	if c.clients.proxy != nil {
		return c.proxiedSpecs()
	}
	kube, dyn := c.clients.Kube, c.clients.Dynamic
	unsupportedKube := watchlist.DoesClientNotSupportWatchListSemantics(kube)
	unsupportedDyn := watchlist.DoesClientNotSupportWatchListSemantics(dyn)
	lw := func(what string, unsupported bool,
		list func(context.Context, metav1.ListOptions) (runtime.Object, error),
		w func(context.Context, metav1.ListOptions) (watch.Interface, error)) *observedLW {
		return &observedLW{id: ns + "/" + what, conn: c.conn, list: list, watch: w, unsupported: unsupported}
	}
	sel := c.fleet.opts.LabelSelector
	var specs []informerSpec
	for _, r := range []schema.GroupVersionResource{appsGVR, servicesGVR} {
		if !allowed[r.Resource] {
			continue
		}
		src, unsupported := c.appSource(r, ns), unsupportedDyn
		listed := c.conn.progress.newList()
		if c.clients.apps != nil {
			unsupported = false // a real API server's REST client
		}
		spec := informerSpec{
			what: r.Resource, example: &appEntryExample,
			lw: lw(r.Resource, unsupported,
				func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
					o.LabelSelector = sel
					l, err := src.list(ctx, o)
					if err != nil {
						return nil, err
					}
					c.countList(listed, o, l)
					return l, nil
				},
				func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
					o.LabelSelector = sel
					w, err := src.watch(ctx, o)
					if err == nil {
						w = c.countWatch(listed, o, w)
					}
					return w, err
				}),
			transform: wire.TransformApp(c.name), key: ownKey,
		}
		if ns == "" && sel == "" { // the server counts only unfiltered lists
			spec.expect = func(ctx context.Context) {
				c.countExpected(ctx, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
					l, err := src.list(ctx, o)
					if err != nil {
						return nil, err
					}
					return l, nil
				})
			}
		}
		specs = append(specs, spec)
	}
	apps := c.clients.workloadClient()
	if allowed["deployments"] {
		d := apps.Deployments(ns)
		specs = append(specs, informerSpec{what: "deployments", example: &deploymentExample,
			lw: lw("deployments", unsupportedKube,
				func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return d.List(ctx, o) },
				func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return d.Watch(ctx, o) }),
			transform: wire.TransformDeployment, key: ownKey})
	}
	if allowed["statefulsets"] {
		s := apps.StatefulSets(ns)
		specs = append(specs, informerSpec{what: "statefulsets", example: &statefulSetExample,
			lw: lw("statefulsets", unsupportedKube,
				func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return s.List(ctx, o) },
				func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return s.Watch(ctx, o) }),
			transform: wire.TransformStatefulSet, key: ownKey})
	}
	if allowed["replicasets"] {
		// Every ReplicaSet is listed (the API offers no field selector on
		// replicas), but the transform keeps only a name for scaled-down
		// history, so a Deployment's old sets cost a few bytes each.
		rs := apps.ReplicaSets(ns)
		specs = append(specs, informerSpec{what: "replicasets", example: &replicaSetExample,
			lw: lw("replicasets", unsupportedKube,
				func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return rs.List(ctx, o) },
				func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return rs.Watch(ctx, o) }),
			transform: wire.TransformReplicaSet, key: replicaSetKey, indexers: ownerIndex(replicaSetKey)})
	}
	return specs
}

// appSource is the scope's Apps (or Services): through the hanzo.ai/v1
// client on a real API server, through the dynamic client on a fake one.
func (c *cluster) appSource(r schema.GroupVersionResource, ns string) appSource {
	if c.clients.apps != nil {
		return restApps{c: c.clients.apps, resource: r.Resource, namespace: ns}
	}
	return dynamicApps{cluster: c.name, ri: c.clients.Dynamic.Resource(r).Namespace(ns)}
}

// Example objects tell each reflector what its list and watch return.
var (
	appEntryExample     wire.AppEntry
	unstructuredExample unstructured.Unstructured
	deploymentExample   appsv1.Deployment
	statefulSetExample  appsv1.StatefulSet
	replicaSetExample   appsv1.ReplicaSet
	podExample          corev1.Pod
)
