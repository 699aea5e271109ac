package kube

import (
	"context"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// A list the access probe allowed can still fail on every try: the grant
// revoked meanwhile, a broken conversion webhook, a selector the server
// refuses. The reflector retries for ever, so the first sync never ended and
// the cluster said "syncing" with no end. Once a call of the first sync has
// failed for SyncFailAfter with no success between (at once when the server
// refused it for good), the cluster is failed with that call's error: its
// rows are offline and WaitSynced returns, so headless commands exit instead
// of hanging. The informers keep retrying; once they succeed it syncs.

// An answer that retrying will not change by itself (forbidden, a request
// the server refuses, a resource gone) fails the cluster at once, as kubectl
// would; the retries still run, so a grant given later is seen. Rejected
// credentials are not among them: a credential plugin refreshes its token
// on a 401, and the next try may pass.
func refusedForGood(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsBadRequest(err) ||
		apierrors.IsNotFound(err) || apierrors.IsInvalid(err) || apierrors.IsMethodNotSupported(err)
}

// DefaultSyncFailAfter is FleetOptions.SyncFailAfter's default: several of
// the reflector's retries (0.8 s doubling), past a server's restart.
const DefaultSyncFailAfter = 20 * time.Second

// firstListFailing is the failed reason of a call of the first sync that
// keeps failing; id is the informer's "namespace/resource".
func firstListFailing(id, why string) string {
	return "listing " + listWhere(id) + " keeps failing (retrying): " + why
}

// firstListRetrying is the reason of a syncing cluster while a call of its
// first sync (a list, or a watch after it) fails and is retried: which
// resource, and the last error seen.
func firstListRetrying(id, why string) string { return listWhere(id) + ": " + why }

// listWhere is an informer's "namespace/resource" id in words.
func listWhere(id string) string {
	ns, what, _ := strings.Cut(id, "/")
	if ns != "" {
		what += " in " + ns
	}
	return what
}

// giveUpIfStuck marks the cluster failed when a call of its first sync has
// been failing for limit; it reports whether the cluster is so marked.
func (c *connState) giveUpIfStuck(limit time.Duration) bool {
	c.mu.Lock()
	due := !c.synced && !c.stuck && len(c.down) > 0 && c.now().Sub(c.downAt) >= limit
	stuck := c.stuck
	c.mu.Unlock()
	if due {
		c.update(func() { c.stuck = true })
		return true
	}
	return stuck
}

// boundFirstSync checks, until ctx ends (the first sync done), whether the
// first sync is stuck on a failing call; a stuck cluster has settled.
func (c *cluster) boundFirstSync(ctx context.Context) {
	limit := c.fleet.opts.SyncFailAfter
	if limit <= 0 {
		limit = DefaultSyncFailAfter
	}
	t := time.NewTicker(min(livenessTick, limit/2))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if c.conn.giveUpIfStuck(limit) {
			c.markSettled()
		}
	}
}
