package kube

import (
	"context"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// Hanzo CD (or Argo CD) uninstalled while the board runs: its Application
// CRD deleted, the kind's list and watch answer 404. The cached Applications
// are then no fact about git any more, and the failing calls are not the
// cluster's (its Apps still flow). So the first 404 retires the CD watch:
// its informers stop, their failures are forgotten, CD is set up again from
// discovery (as at start: "no Application kind served" when none is left,
// another kind if one still is), every row is re-evaluated, and a kind
// without a CRD is followed until it is installed again (cd_install.go,
// which replaces the watch the same way when a kind is installed).

// The cluster's notices about CD are those of its current watch, under one
// topic: set up at start, replaced with the watch (a notice that CD is not
// readable, or not followed, must not outlive the watch it was about).
// cdInstallTopic is the follower's own trouble (a CRD watch it could not set).
const (
	cdNotesTopic   = "cd"
	cdInstallTopic = "cd-install"
)

// cdRun is a CD watch's running part.
type cdRun struct {
	ctx  context.Context    // the cluster's, for the set-up that replaces it
	stop context.CancelFunc // ends its informers
	ids  []string           // its informers' connection ids
	gone atomic.Bool        // a kind's resource went: the watch is retired
}

// startCD runs w's informers, and the follower of the kinds it does not
// serve, until ctx ends or w is replaced; it returns what tells they have
// synced (a retired watch counts as synced: the one replacing it decides).
func (c *cluster) startCD(ctx context.Context, w *cdWatch) []cache.InformerSynced {
	w.run.ctx = ctx
	ictx, stop := context.WithCancel(ctx)
	w.run.stop = stop
	syncs := make([]cache.InformerSynced, 0, len(w.infs))
	for _, inf := range w.infs {
		syncs = append(syncs, func() bool { return w.run.gone.Load() || inf.HasSynced() })
		go inf.RunWithContext(ictx)
	}
	if len(w.infs) > 0 {
		go c.checkCDDeletions(ictx, w)
	}
	if len(w.install) > 0 {
		go c.followCDInstall(ictx, w)
	}
	return syncs
}

// cdCall is every CD list and watch call's outcome: a 404 retires the
// watch, and a retired watch's failures are not reported as the cluster's
// (context.Canceled is ignored by the connection state).
func (c *cluster) cdCall(w *cdWatch, err error) error {
	if err == nil {
		return nil
	}
	if apierrors.IsNotFound(err) && w.run.gone.CompareAndSwap(false, true) {
		go c.cdKindGone(w)
	}
	if w.run.gone.Load() {
		return context.Canceled
	}
	return err
}

// cdKindGone replaces a retired CD watch with one set up from discovery,
// the kinds gone (their CRD being deleted) counted as not served.
func (c *cluster) cdKindGone(old *cdWatch, gone ...schema.GroupVersionResource) {
	old.run.stop()
	for _, id := range old.run.ids {
		c.conn.forget(id)
	}
	// Until its replacement has synced, rows say their git state is not
	// known (cdView), not the last one the retired watch saw.
	c.markEveryRow()
	ctx := old.run.ctx
	if ctx.Err() != nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute) // as the cluster's setup
	known := map[schema.GroupVersionResource]bool{}
	for _, gvr := range gone {
		known[gvr] = false
	}
	w, notices := c.setupCD(sctx, known)
	cancel()
	c.replaceCD(old, w, notices)
}

// replaceCD runs w until synced, then puts it in old's place (unless old
// was replaced meanwhile) and stops old: every row is re-evaluated, and the
// chart rows old made go.
func (c *cluster) replaceCD(old, w *cdWatch, notices []string) {
	ctx := old.run.ctx
	if ctx.Err() != nil {
		return
	}
	if !cache.WaitForCacheSync(ctx.Done(), c.startCD(ctx, w)...) {
		w.run.stop()
		return
	}
	c.mu.Lock()
	current := c.cd == old
	if current {
		c.cd = w
	}
	c.mu.Unlock()
	if !current {
		w.run.stop()
		return
	}
	old.run.gone.Store(true) // its calls, while it stops, are not the cluster's
	old.run.stop()
	c.conn.setNotes(cdNotesTopic, notices) // they describe this watch: the start's or old's go
	c.conn.setNote(cdInstallTopic, "")
	c.fleet.markDirtyKeys(old.chartKeys())
	c.cdChanged()
	c.markEveryRow() // refreshCD re-evaluates rows for readable Applications only
}

// chartKeys are the chart-plane rows the watch made.
func (w *cdWatch) chartKeys() []model.Key {
	w.mu.Lock()
	defer w.mu.Unlock()
	keys := make([]model.Key, 0, len(w.charts))
	for k := range w.charts {
		keys = append(keys, k)
	}
	return keys
}
