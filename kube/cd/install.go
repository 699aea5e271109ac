package cd

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// CD installed while the board runs: a cluster that served no Application
// kind at setup watches the CustomResourceDefinitions of the configured
// kinds, each by name (a field selector on metadata.name, so RBAC may grant
// just those names), and follows Applications once one is established and
// serves the kind's version. No discovery is polled.

// NoticeInstallNotWatched says that a CD installed later is not seen
// until a restart: the identity may not watch the CRDs that would tell.
const NoticeInstallNotWatched = "no CD Application kind served, and its CustomResourceDefinition may not be watched: a CD installed later is seen after a restart"

// NoticeKindNotWatched says the same of kinds not served beside one that
// is (or one whose CRD may be watched): installed later, their Applications
// are not read until a restart, so "not-managed" covers the kinds read only.
const NoticeKindNotWatched = "CD Application kinds not served now are seen only after a restart if installed later (their CustomResourceDefinition may not be watched); until then \"not-managed\" means no Application of the kinds read lists the App"

// setup discovers the served Application kinds and probes who may list
// them; it returns the watch (not running yet) and notices for the board.
// The kinds not served have their CRDs watched where the identity may: a CD
// installed later, a second one beside the first included, is followed.
// One whose CRD may not be watched is not checked until a restart, and the
// notices say so, as do the rows no Application lists (CDView.Unfollowed).
func (cw *Watcher) setup(ctx context.Context, known map[schema.GroupVersionResource]bool) (*appWatch, []string) {
	w, notices := cw.setupWith(ctx, known)
	if w.why == model.GitWhyUndiscovered {
		return w, notices
	}
	if missing := unserved(cw.cfg.Kinds, w); len(missing) > 0 {
		var refused []string
		w.install, refused = cw.installWatchable(ctx, missing)
		notices = append(notices, w.setUnfollowed(refused)...)
	}
	return w, notices
}

// setUnfollowed keeps which kinds' CRDs may not be watched ("crd: why") and
// returns the notice saying what is not checked: with no kind served a CD
// installed later, else a second kind installed later.
func (w *appWatch) setUnfollowed(refused []string) []string {
	w.unfollowed = nil
	for _, r := range refused {
		name, _, _ := strings.Cut(r, ":")
		w.unfollowed = append(w.unfollowed, name)
	}
	switch {
	case len(refused) == 0:
		return nil
	case w.why == model.GitWhyNoKind && len(w.install) == 0:
		return []string{NoticeInstallNotWatched + " (" + strings.Join(refused, "; ") + ")"}
	}
	return []string{NoticeKindNotWatched + " (" + strings.Join(refused, "; ") + ")"}
}

// installWatchable probes which of the kinds' CRDs the identity may
// watch; it returns those, and "crd: why" for the others.
func (cw *Watcher) installWatchable(ctx context.Context, kinds []Kind) (ok []Kind, refused []string) {
	for _, k := range kinds {
		sel := fields.OneTermEqualSelector("metadata.name", CRDName(k)).String()
		_, err := cw.cfg.Dynamic.Resource(CRDs).List(ctx, metav1.ListOptions{FieldSelector: sel, Limit: 1})
		if err != nil {
			why := cw.cfg.Host.ErrText(err)
			if apierrors.IsForbidden(err) {
				why = "forbidden"
			}
			refused = append(refused, CRDName(k)+": "+why)
			continue
		}
		ok = append(ok, k)
	}
	return ok, refused
}

// followInstall waits until one of the kinds w does not serve has its CRD
// established and serving its version, then sets CD up again (that kind
// counted as served, the others asked of discovery) and replaces w: every
// row is re-evaluated. It ends with w (its CRD watches too).
func (cw *Watcher) followInstall(ctx context.Context, w *appWatch) {
	kinds := w.install
	served := make(chan schema.GroupVersionResource, len(kinds))
	for _, k := range kinds {
		inf := cw.newCRDInformer(k)
		seen := func(obj any) {
			if u, ok := obj.(*unstructured.Unstructured); ok && crdServes(u, k.GVR.Version) {
				select {
				case served <- k.GVR:
				default:
				}
			}
		}
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: seen, UpdateFunc: func(_, cur any) { seen(cur) },
		}); err != nil {
			cw.cfg.Host.SetNote(installTopic, fmt.Sprintf("%s: watch: %s: a CD installed later is seen after a restart", CRDName(k), cw.cfg.Host.ErrText(err)))
			continue
		}
		go inf.RunWithContext(ctx)
	}
	retry := time.Second
	for {
		var gvr schema.GroupVersionResource
		select {
		case <-ctx.Done():
			return
		case gvr = <-served:
		}
		next, notices := cw.setupWith(ctx, map[schema.GroupVersionResource]bool{gvr: true})
		if !next.served[gvr] { // established, but its resource not answering yet: ask again shortly
			select {
			case <-ctx.Done():
				return
			case <-time.After(retry):
			}
			retry = min(2*retry, 30*time.Second)
			select {
			case served <- gvr:
			default:
			}
			continue
		}
		if missing := unserved(cw.cfg.Kinds, next); len(missing) > 0 {
			var refused []string
			next.install, refused = cw.installWatchable(ctx, missing) // a third kind may still come
			notices = append(notices, next.setUnfollowed(refused)...)
		}
		cw.replace(w, next, notices)
		return
	}
}

// unserved are the kinds w does not serve.
func unserved(kinds []Kind, w *appWatch) []Kind {
	var out []Kind
	for _, k := range kinds {
		if !w.served[k.GVR] {
			out = append(out, k)
		}
	}
	return out
}

// newCRDInformer watches the one CustomResourceDefinition that defines k.
func (cw *Watcher) newCRDInformer(k Kind) cache.SharedIndexInformer {
	sel := fields.OneTermEqualSelector("metadata.name", CRDName(k)).String()
	ri := cw.cfg.Dynamic.Resource(CRDs)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = sel
			return ri.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = sel
			return ri.Watch(ctx, o)
		},
	}
	return cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, 0, cache.Indexers{})
}

// crdServes reports whether a CRD is established and serves version (and
// is not being deleted: CD uninstalled, its Applications going).
func crdServes(u *unstructured.Unstructured, version string) bool {
	if u.GetDeletionTimestamp() != nil {
		return false
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	established := false
	for _, cond := range conds {
		if m, ok := cond.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			established = true
		}
	}
	if !established {
		return false
	}
	versions, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	for _, v := range versions {
		if m, ok := v.(map[string]any); ok && m["name"] == version && m["served"] == true {
			return true
		}
	}
	return false
}
