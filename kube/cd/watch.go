package cd

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// entry is a decoded Application in an informer's cache.
type entry struct {
	wire.EntryMeta
	App      model.CDApplication
	Deleting bool // a deletionTimestamp: going (terminating.go)
}

func (e *entry) DeepCopyObject() runtime.Object { c := *e; return &c }

// appWatch is one set-up of the CD watch: why it cannot tell (a GitWhy constant),
// or the informers of the served, readable kinds.
type appWatch struct {
	why  string
	infs []cache.SharedIndexInformer
	// install: kinds whose CRD is watched because none was served at setup
	// (install.go); empty when CRDs may not be watched.
	install []Kind
	// unfollowed: CRDs (by name) of kinds not served whose CRD may not be
	// watched: installed later, they are not read until a restart.
	unfollowed []string
	served     map[schema.GroupVersionResource]bool // kinds served and answering at set-up
	run        running                              // its informers' lifetime (uninstall.go)
	deletions  chan schema.GroupVersionResource     // kinds whose Applications went, to check (terminating.go)

	mu     sync.Mutex
	dirty  bool
	view   model.CDView
	charts map[model.Key]*model.CDApplication // chart-plane rows (no App CR)
	ready  bool                               // the view was built once
}

// setupWith is setup with the kinds in known known to be served (true:
// their CRD was seen established) or not (false: being deleted) instead of
// asked of discovery.
func (cw *Watcher) setupWith(ctx context.Context, known map[schema.GroupVersionResource]bool) (*appWatch, []string) {
	w := &appWatch{dirty: true, served: map[schema.GroupVersionResource]bool{}, deletions: make(chan schema.GroupVersionResource, 4)}
	var notices []string
	served, forbidden, undiscovered := 0, 0, 0
	for _, k := range cw.cfg.Kinds {
		ok, told := known[k.GVR]
		var err error
		if !told {
			ok, err = cw.servesResource(k.GVR)
		}
		if err != nil { // not "not served": we could not tell
			undiscovered++
			notices = append(notices, fmt.Sprintf("%s: discovery failed (%s): git state unknown", k.GVR.GroupResource(), cw.cfg.Host.ErrText(err)))
			continue
		}
		if !ok {
			continue
		}
		served++
		ns, err := cw.listScope(ctx, k)
		if apierrors.IsNotFound(err) { // served by discovery (or a CRD just established), not answering yet
			served--
			continue
		}
		w.served[k.GVR] = true
		if err != nil {
			forbidden++
			notices = append(notices, fmt.Sprintf("%s: Applications not readable (%s): git state unknown", k.GVR.GroupResource(), cw.cfg.Host.ErrText(err)))
			continue
		}
		inf, err := cw.newInformer(w, k.GVR, ns)
		if err != nil {
			notices = append(notices, err.Error())
			forbidden++
			continue
		}
		w.infs = append(w.infs, inf)
	}
	switch {
	case served == 0 && undiscovered > 0:
		w.why = model.GitWhyUndiscovered
	case served == 0:
		w.why = model.GitWhyNoKind
	case len(w.infs) == 0 && forbidden > 0:
		w.why = model.GitWhyForbidden
	}
	return w, notices
}

// servesResource asks discovery for the group/version's resources and looks
// for the full resource name (never a short name). A group/version that is
// not served (404) is not an error.
func (cw *Watcher) servesResource(gvr schema.GroupVersionResource) (bool, error) {
	list, err := cw.cfg.Discovery.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, r := range list.APIResources {
		if r.Name == gvr.Resource {
			return true, nil
		}
	}
	return false, nil
}

// listScope is where the kind's Applications can be listed: "" (all
// namespaces), else the kind's home namespace.
func (cw *Watcher) listScope(ctx context.Context, k Kind) (string, error) {
	res := cw.cfg.Dynamic.Resource(k.GVR)
	_, err := res.List(ctx, metav1.ListOptions{Limit: 1})
	if err == nil {
		return "", nil
	}
	if apierrors.IsForbidden(err) && k.Namespace != "" {
		if _, err2 := res.Namespace(k.Namespace).List(ctx, metav1.ListOptions{Limit: 1}); err2 == nil {
			return k.Namespace, nil
		}
	}
	return "", err
}
