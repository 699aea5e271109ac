package cd

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// CD uninstalled by deleting its Application CRD: the API server marks the
// CRD deleted (a deletionTimestamp; its cleanup finalizer holds it), deletes
// every Application, and only then removes the CRD, whose 404 retires the
// watch (uninstall.go). Taken one by one, those deletions said "no
// Application lists it" of the rows (not-managed) for as long as the
// cleanup took: a state CD never reported. So the watch looks at its kind's
// CRD when an Application is deleted (one GET, coalesced) before taking the
// deletion as a change: a CRD being deleted retires the watch at once, as
// its 404 would, and the kind is not served to the watch set up instead. An
// identity that may not read the CRD takes the deletion as a change, as
// before.

// deleted queues a check of gvr's CRD after one of its Applications was
// deleted; a check already queued covers it.
func (w *appWatch) deleted(gvr schema.GroupVersionResource) {
	select {
	case w.deletions <- gvr:
	default:
	}
}

// checkDeletions runs w's deletion checks until ctx ends or w retires.
func (cw *Watcher) checkDeletions(ctx context.Context, w *appWatch) {
	for {
		var gvr schema.GroupVersionResource
		select {
		case <-ctx.Done():
			return
		case gvr = <-w.deletions:
		}
		if cw.crdTerminating(ctx, gvr) {
			if w.run.gone.CompareAndSwap(false, true) {
				go cw.kindGone(w, gvr)
			}
			return
		}
		cw.changed()
	}
}

// crdTerminating reports whether gvr's CRD is being deleted or gone; false
// when it cannot be read.
func (cw *Watcher) crdTerminating(ctx context.Context, gvr schema.GroupVersionResource) bool {
	u, err := cw.cfg.Dynamic.Resource(CRDs).Get(ctx, CRDName(Kind{GVR: gvr}), metav1.GetOptions{})
	if err != nil {
		return apierrors.IsNotFound(err)
	}
	return u.GetDeletionTimestamp() != nil
}
