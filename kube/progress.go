package kube

import (
	"context"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// syncProgress counts the Apps (and Services) a syncing cluster has sent so
// far, and how many it holds, so the header can say "syncing n/N" while the
// initial lists stream in.
type syncProgress struct {
	listed   atomic.Int64
	expected atomic.Int64 // 0: not known
}

// progressStep is how many received objects make the header redraw.
const progressStep = 500

func (p *syncProgress) counts() (listed, expected int) {
	l, e := int(p.listed.Load()), int(p.expected.Load())
	if e > 0 {
		l = min(l, e) // a list retried after an error counts twice
	}
	return l, e
}

// countList counts a LIST page's items while the cluster syncs.
func (c *cluster) countList(obj runtime.Object) {
	if c.isSynced() {
		return
	}
	if n := meta.LenList(obj); n > 0 {
		c.seeList(obj)
		c.conn.progress.listed.Add(int64(n))
		c.fleet.signal()
	}
}

// countWatch counts the objects a streaming list (sendInitialEvents) sends
// before the cluster has synced; after that it only passes events on.
func (c *cluster) countWatch(w watch.Interface) watch.Interface {
	if c.isSynced() {
		return w
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type == watch.Added && !c.isSynced() {
			if c.conn.progress.listed.Add(1)%progressStep == 0 {
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
