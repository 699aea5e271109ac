package kube

import (
	"context"
	"time"

	"k8s.io/client-go/tools/cache"
)

// setupExtras sets up what the rows can first be shown without — the
// namespaces' labels watch and the CD Applications' watch (not run yet) —
// and returns its notices. It runs while the informers list: each of its
// round trips (a namespace probe, discovery of two CD groups, a CRD probe
// per CD kind) used to delay every cluster's first rows, most on a busy
// machine. A row built before it is done is rebuilt when the labels arrive
// (markNamespaceDirty) and is not final until CD is known (cd.Settled).
func (c *cluster) setupExtras(ctx context.Context) []string {
	defer close(c.extrasSet)
	var notices []string
	if c.clients.proxy != nil {
		return c.proxiedExtras(ctx)
	}
	if n := c.watchNamespaceLabels(ctx); n != "" {
		notices = append(notices, n)
	}
	if c.follow != nil && c.nsLabelsWatch() == nil { // listed once, but not watchable
		c.follow = nil
		notices = append(notices, NotFollowingNamespaces)
	}
	dctx, cancel := context.WithTimeout(ctx, time.Minute) // an unreachable server must not hang setup
	defer cancel()
	c.cd.Setup(dctx)
	return notices
}

// nsLabelsListed is the namespaces' labels being known, which the first sync
// waits for: a row built before them takes its org from the App or its image
// (a tenant's may differ), so the cluster must not read live until they are
// in. A namespace list that keeps failing (no bound of its own, unlike the
// informers' lists) is waited for SyncFailAfter at most.
func (c *cluster) nsLabelsListed(n *nsLabels) cache.InformerSynced {
	limit := c.fleet.opts.SyncFailAfter
	if limit <= 0 {
		limit = DefaultSyncFailAfter
	}
	deadline := time.Now().Add(limit)
	return func() bool { return n.hasSynced() || time.Now().After(deadline) }
}
