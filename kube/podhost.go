package kube

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/hanzoai/driftboard/kube/podwatch"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// DefaultMaxPodWatches bounds the pod watches of one cluster
// (FleetOptions.MaxPodWatches overrides it).
const DefaultMaxPodWatches = podwatch.DefaultMax

// podHost is what a cluster does for its pod watches (podwatch.Host): their
// informers report to the cluster's connection state and mark its rows.
type podHost struct{ c *cluster }

var _ podwatch.Host = podHost{}

func (h podHost) PodsAllowed(ns string) bool {
	s := h.c.scopeFor(ns)
	return s != nil && s.podsAllowed
}

func (h podHost) NewInformer(id string, k model.Key, sel string) (cache.SharedIndexInformer, error) {
	pods := h.c.clients.Kube.CoreV1().Pods(k.Namespace)
	lw := &observedLW{id: id, conn: h.c.conn,
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(h.c.clients.Kube),
		list: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.LabelSelector = sel
			return pods.List(ctx, o)
		},
		watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = sel
			return pods.Watch(ctx, o)
		},
	}
	inf, _, err := h.c.newInformer(informerSpec{what: "pods", example: &podExample, lw: lw, transform: wire.TransformPod,
		key: func(any) (string, string) { return k.Namespace, k.Name }})
	return inf, err
}

func (h podHost) Forget(id string)           { h.c.conn.forget(id) }
func (h podHost) SetNote(topic, text string) { h.c.conn.setNote(topic, text) }
func (h podHost) MarkRows(keys []model.Key)  { h.c.fleet.markDirtyKeys(keys) }

// failingPods are the watched pods of k that fail and belong to the
// workload (a selector alone also matches strays); nil when not watched.
func (c *cluster) failingPods(k model.Key, s *scope, we *wire.WorkloadEntry) []model.PodFailure {
	pods, watched := c.pods.Pods(k)
	if !watched {
		return nil
	}
	owners := podOwners(s, k, we) // only for watched pods: a healthy fleet watches none
	var out []model.PodFailure
	for _, pe := range pods {
		if pe.OwnerKind == owners.kind && owners.uids[pe.OwnerUID] {
			out = append(out, pe.Failures...)
		}
	}
	return out
}

// PodWatches is the number of pod watches the fleet runs, and of workloads
// that want one beyond the bound.
func (f *Fleet) PodWatches() (running, waiting int) {
	for _, c := range f.clusters {
		r, w := c.pods.Count()
		running += r
		waiting += w
	}
	return running, waiting
}

// WaitPodWatches waits until the pod watches started so far have listed
// their pods (or ctx ends), for one-shot commands that read one snapshot.
// It reports whether there were any.
func (f *Fleet) WaitPodWatches(ctx context.Context) bool {
	var syncs []cache.InformerSynced
	for _, c := range f.clusters {
		syncs = append(syncs, c.pods.Listed()...)
	}
	if len(syncs) == 0 {
		return false
	}
	return cache.WaitForCacheSync(ctx.Done(), syncs...)
}
