package kube

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
// without a CRD is followed until it is installed again (cd_install.go).

// cdRun is a CD watch's running part.
type cdRun struct {
	ctx  context.Context    // the cluster's, for the set-up that replaces it
	stop context.CancelFunc // ends its informers
	ids  []string           // its informers' connection ids
	gone atomic.Bool        // a kind's resource went: the watch is retired
}

// start runs the watch's informers until ctx ends or the watch is retired;
// it returns what tells they have synced (a retired watch counts as synced:
// the one that replaces it decides).
func (w *cdWatch) start(ctx context.Context) []cache.InformerSynced {
	w.run.ctx = ctx
	ictx, stop := context.WithCancel(ctx)
	w.run.stop = stop
	syncs := make([]cache.InformerSynced, 0, len(w.infs))
	for _, inf := range w.infs {
		syncs = append(syncs, func() bool { return w.run.gone.Load() || inf.HasSynced() })
		go inf.RunWithContext(ictx)
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

// cdKindGone replaces a retired CD watch with one set up from discovery.
func (c *cluster) cdKindGone(old *cdWatch) {
	if old.run.stop != nil {
		old.run.stop()
	}
	for _, id := range old.run.ids {
		c.conn.forget(id)
	}
	ctx := old.run.ctx
	if ctx == nil || ctx.Err() != nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute) // as the cluster's setup
	w, notices := c.setupCD(sctx)
	cancel()
	if !cache.WaitForCacheSync(ctx.Done(), w.start(ctx)...) {
		return
	}
	c.conn.setNote("cd-install", strings.Join(notices, "; "))
	gone := old.chartKeys()
	c.mu.Lock()
	c.cd = w
	c.mu.Unlock()
	c.fleet.markDirtyKeys(gone) // chart rows of the old watch go
	c.cdChanged()
	c.markEveryRow() // rows of a kind no longer served are not re-evaluated by refreshCD
	if len(w.install) > 0 {
		go c.followCDInstall(ctx, w.install)
	}
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
