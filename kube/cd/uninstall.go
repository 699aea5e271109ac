package cd

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
// without a CRD is followed until it is installed again (install.go,
// which replaces the watch the same way when a kind is installed).

// running is a CD watch's running part.
type running struct {
	ctx  context.Context    // the cluster's, for the set-up that replaces it
	stop context.CancelFunc // ends its informers
	ids  []string           // its informers' connection ids
	gone atomic.Bool        // a kind's resource went: the watch is retired
}

// start runs w's informers, and the follower of the kinds it does not
// serve, until ctx ends or w is replaced; it returns what tells they have
// synced (a retired watch counts as synced: the one replacing it decides).
func (cw *Watcher) start(ctx context.Context, w *appWatch) []cache.InformerSynced {
	w.run.ctx = ctx
	ictx, stop := context.WithCancel(ctx)
	w.run.stop = stop
	syncs := make([]cache.InformerSynced, 0, len(w.infs))
	for _, inf := range w.infs {
		syncs = append(syncs, func() bool { return w.run.gone.Load() || inf.HasSynced() })
		go inf.RunWithContext(ictx)
	}
	if len(w.infs) > 0 {
		go cw.checkDeletions(ictx, w)
	}
	if len(w.install) > 0 {
		go cw.followInstall(ictx, w)
	}
	return syncs
}

// call is every CD list and watch call's outcome: a 404 retires the
// watch, and a retired watch's failures are not reported as the cluster's
// (context.Canceled is ignored by the connection state).
func (cw *Watcher) call(w *appWatch, err error) error {
	if err == nil {
		return nil
	}
	if apierrors.IsNotFound(err) && w.run.gone.CompareAndSwap(false, true) {
		go cw.kindGone(w)
	}
	if w.run.gone.Load() {
		return context.Canceled
	}
	return err
}

// kindGone replaces a retired CD watch with one set up from discovery,
// the kinds gone (their CRD being deleted) counted as not served.
func (cw *Watcher) kindGone(old *appWatch, gone ...schema.GroupVersionResource) {
	old.run.stop()
	for _, id := range old.run.ids {
		cw.cfg.Host.Forget(id)
	}
	// Until its replacement has synced, rows say their git state is not
	// known (View), not the last one the retired watch saw.
	cw.cfg.Host.MarkEveryRow()
	ctx := old.run.ctx
	if ctx.Err() != nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute) // as the cluster's setup
	known := map[schema.GroupVersionResource]bool{}
	for _, gvr := range gone {
		known[gvr] = false
	}
	w, notices := cw.setup(sctx, known)
	cancel()
	cw.replace(old, w, notices)
}

// replace runs w until synced, then puts it in old's place (unless old
// was replaced meanwhile) and stops old: every row is re-evaluated, and the
// chart rows old made go.
func (cw *Watcher) replace(old, w *appWatch, notices []string) {
	ctx := old.run.ctx
	if ctx.Err() != nil {
		return
	}
	if !cache.WaitForCacheSync(ctx.Done(), cw.start(ctx, w)...) {
		w.run.stop()
		return
	}
	cw.mu.Lock()
	current := cw.cur == old
	if current {
		cw.cur = w
	}
	cw.mu.Unlock()
	if !current {
		w.run.stop()
		return
	}
	old.run.gone.Store(true) // its calls, while it stops, are not the cluster's
	old.run.stop()
	cw.cfg.Host.SetNotes(notesTopic, notices) // they describe this watch: the start's or old's go
	cw.cfg.Host.SetNote(installTopic, "")
	cw.cfg.Host.MarkRows(old.chartKeys())
	cw.changed()
	cw.cfg.Host.MarkEveryRow() // Refresh re-evaluates rows for readable Applications only
}

// chartKeys are the chart-plane rows the watch made.
func (w *appWatch) chartKeys() []model.Key {
	w.mu.Lock()
	defer w.mu.Unlock()
	keys := make([]model.Key, 0, len(w.charts))
	for k := range w.charts {
		keys = append(keys, k)
	}
	return keys
}
