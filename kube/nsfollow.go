package kube

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// NotFollowingNamespaces is the cluster's notice in per-namespace mode when
// the identity cannot list namespaces: the board keeps the namespaces it
// found at start.
const NotFollowingNamespaces = "new namespaces are not picked up: cannot list namespaces"

// A namespace younger than this that cannot be read yet is probed again
// (with backoff): its RoleBinding often follows its creation. Older ones
// are probed once, so a restricted identity does not poll a big cluster.
const youngNamespace = 5 * time.Minute

// nsFollow keeps per-namespace mode in step with the namespaces that
// exist: a namespace created later gets its scope once it is readable, a
// deleted one loses it (and its rows).
type nsFollow struct {
	resources []string // what to probe in a new namespace
	kick      chan struct{}

	mu      sync.Mutex
	retryAt map[string]time.Time // unreadable namespaces: when to probe again (zero: never)
	tries   map[string]int
}

func newNSFollow(resources, probed []string) *nsFollow {
	f := &nsFollow{resources: resources, kick: make(chan struct{}, 1),
		retryAt: map[string]time.Time{}, tries: map[string]int{}}
	for _, ns := range probed {
		f.retryAt[ns] = time.Time{} // found unreadable (or read) at start
	}
	return f
}

func (f *nsFollow) signal() {
	if f == nil {
		return
	}
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

// followNamespaces reconciles the scopes with the namespaces the namespace
// watch sees, at each change, until ctx ends.
func (c *cluster) followNamespaces(ctx context.Context) {
	for {
		c.reconcileNamespaces(ctx)
		select {
		case <-ctx.Done():
			return
		case <-c.follow.kick:
		}
	}
}

func (c *cluster) reconcileNamespaces(ctx context.Context) {
	n := c.nsLabelsWatch()
	if n == nil || !n.hasSynced() {
		return
	}
	exist := n.created()
	c.mu.RLock()
	have := slices.Collect(maps.Keys(c.scopes))
	c.mu.RUnlock()
	for _, ns := range have {
		if _, ok := exist[ns]; !ok && ns != "" {
			c.dropScope(ns)
		}
	}
	f := c.follow
	f.mu.Lock()
	for ns := range f.retryAt { // deleted before it was ever readable
		if _, ok := exist[ns]; !ok {
			delete(f.retryAt, ns)
			delete(f.tries, ns)
		}
	}
	f.mu.Unlock()
	now := time.Now()
	for _, ns := range slices.Sorted(maps.Keys(exist)) {
		if ctx.Err() != nil {
			return
		}
		if c.hasScope(ns) {
			continue
		}
		f.mu.Lock()
		at, probed := f.retryAt[ns]
		f.mu.Unlock()
		if probed && (at.IsZero() || now.Before(at)) {
			continue
		}
		allowed, notice := c.probeNamespace(ctx, ns, f.resources, false)
		c.conn.setNote("ns "+ns, notice)
		if allowed == nil || !c.addScope(ctx, ns, allowed) {
			c.retryLater(ns, exist[ns], now)
		}
	}
}

// retryLater schedules another probe of a young namespace, or none.
func (c *cluster) retryLater(ns string, created, now time.Time) {
	f := c.follow
	f.mu.Lock()
	defer f.mu.Unlock()
	if now.Sub(created) > youngNamespace {
		f.retryAt[ns] = time.Time{}
		return
	}
	f.tries[ns]++
	delay := min(time.Second<<f.tries[ns], time.Minute)
	f.retryAt[ns] = now.Add(delay)
	time.AfterFunc(delay, f.signal)
}

func (c *cluster) hasScope(ns string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.scopes[ns]
	return ok
}

// addScope starts a new namespace's informers and publishes the scope once
// they have listed, so its rows never show a half-listed namespace.
func (c *cluster) addScope(ctx context.Context, ns string, allowed map[string]bool) bool {
	s, err := c.newScope(ns, allowed)
	if err != nil {
		c.conn.setNote("ns "+ns, "namespace "+ns+": "+err.Error())
		return false
	}
	s.run(ctx)
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !cache.WaitForCacheSync(wctx.Done(), s.listed()...) {
		s.stop()
		return false
	}
	c.mu.Lock()
	c.scopes[ns] = s
	c.mu.Unlock()
	c.markNamespaceDirty(ns) // its rows, not every cluster's
	return true
}

// dropScope stops a deleted namespace's informers; its rows go.
func (c *cluster) dropScope(ns string) {
	keys := c.appKeysIn(ns)
	c.mu.Lock()
	s := c.scopes[ns]
	delete(c.scopes, ns)
	c.mu.Unlock()
	if s == nil {
		return
	}
	s.stop()
	for what := range s.inf {
		c.conn.forget(ns + "/" + what)
	}
	c.conn.setNote("ns "+ns, "")
	f := c.follow
	f.mu.Lock()
	delete(f.retryAt, ns)
	delete(f.tries, ns)
	f.mu.Unlock()
	for _, k := range keys {
		c.fleet.markDirty(k)
	}
}

// appKeysIn lists the row keys of namespace ns.
func (c *cluster) appKeysIn(ns string) []model.Key {
	var out []model.Key
	for _, k := range c.appKeys() {
		if k.Namespace == ns {
			out = append(out, k)
		}
	}
	return out
}
