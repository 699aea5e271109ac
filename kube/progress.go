package kube

import (
	"context"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// syncProgress counts the Apps (and Services) a syncing cluster has sent so
// far, and how many it holds, so the header can say "syncing n/N" while the
// initial lists stream in. Each informer counts what its current list
// brought: a list retried from scratch (a stream cut, a failed page) counts
// again from zero, so n never adds a failed try's Apps to the retry's.
type syncProgress struct {
	mu       sync.Mutex
	lists    []*atomic.Int64 // one per App or Service informer
	expected atomic.Int64    // 0: not known
}

// progressStep is how many received objects make the header redraw.
const progressStep = 500

func (p *syncProgress) counts() (listed, expected int) {
	p.mu.Lock()
	for _, n := range p.lists {
		listed += int(n.Load())
	}
	p.mu.Unlock()
	if e := int(p.expected.Load()); e > 0 {
		return min(listed, e), e // an App created during the sync may come on top
	}
	return listed, 0
}

// newList is the count of one informer's lists.
func (p *syncProgress) newList() *atomic.Int64 {
	n := new(atomic.Int64)
	p.mu.Lock()
	p.lists = append(p.lists, n)
	p.mu.Unlock()
	return n
}

// countList counts a LIST page's items while the cluster syncs; the first
// page of a list (no continue token) starts the informer's count again.
func (c *cluster) countList(n *atomic.Int64, o metav1.ListOptions, obj runtime.Object) {
	if c.isSynced() {
		return
	}
	if o.Continue == "" {
		n.Store(0)
	}
	if k := meta.LenList(obj); k > 0 {
		c.prov.SeeList(obj)
		n.Add(int64(k))
		c.fleet.signal()
	}
}

// countWatch counts the objects a streaming list (sendInitialEvents) sends
// before the cluster has synced, from zero for each such list; after that
// it only passes events on.
func (c *cluster) countWatch(n *atomic.Int64, o metav1.ListOptions, w watch.Interface) watch.Interface {
	if c.isSynced() {
		return w
	}
	if o.SendInitialEvents != nil && *o.SendInitialEvents {
		n.Store(0)
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type == watch.Added && !c.isSynced() {
			if n.Add(1)%progressStep == 0 {
				c.fleet.signal()
			}
		}
		return e, true
	})
}

// countExpected asks how many objects a kind holds with a one-item LIST
// (remainingItemCount); the server omits it with a label selector, and then
// the total stays unknown.
func (c *cluster) countExpected(ctx context.Context, list func(context.Context, metav1.ListOptions) (runtime.Object, error)) {
	obj, err := list(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return
	}
	lm, err := meta.ListAccessor(obj)
	if err != nil {
		return
	}
	n := int64(meta.LenList(obj))
	if rest := lm.GetRemainingItemCount(); rest != nil {
		n += *rest
	} else if lm.GetContinue() != "" {
		return // more, but not how many
	}
	c.conn.progress.expected.Add(n)
	c.fleet.signal()
}
