package cd

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
)

// newInformer is the informer of one kind's Applications in ns ("" = all),
// its calls reported to the cluster as its other informers' are.
func (cw *Watcher) newInformer(w *appWatch, gvr schema.GroupVersionResource, ns string) (cache.SharedIndexInformer, error) {
	ri := cw.cfg.Dynamic.Resource(gvr).Namespace(ns)
	what := gvr.GroupResource().String()
	id := ns + "/" + what
	list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		l, err := ri.List(ctx, o)
		return l, cw.call(w, err)
	}
	watchFn := func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		wi, err := ri.Watch(ctx, o)
		return wi, cw.call(w, err)
	}
	w.run.ids = append(w.run.ids, id)
	inf, err := cw.cfg.Host.NewInformer(id, what, list, watchFn, transform(cw.cfg.Name, gvr.Group))
	if err != nil {
		return nil, err
	}
	// Any Application change may move any row of the cluster (one
	// Application lists them all), so the cluster's rows are re-evaluated.
	changed := func(any) { cw.changed() } // a deletion: checked against the kind's CRD first
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: changed, DeleteFunc: func(any) { w.deleted(gvr) },
		UpdateFunc: func(old, cur any) {
			if e, ok := cur.(*entry); ok && e.Deleting {
				w.deleted(gvr)
				return
			}
			om, ok1 := wire.MetaOf(old)
			cm, ok2 := wire.MetaOf(cur)
			if !ok1 || !ok2 || om.GetResourceVersion() != cm.GetResourceVersion() {
				cw.changed()
			}
		},
	}); err != nil {
		return nil, fmt.Errorf("%s informer: add handler: %w", what, err)
	}
	return inf, nil
}

// transform decodes an Application as it is cached.
func transform(cluster, group string) func(any) (any, error) {
	return func(obj any) (any, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, nil
		}
		e := &entry{App: wire.DecodeCDApplication(cluster, group, u.Object), Deleting: u.GetDeletionTimestamp() != nil}
		e.EntryMeta = wire.TrimmedMeta(u)
		return e, nil
	}
}
