package demo

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
)

// apiTracker puts back the parts of an API server the client-go fakes leave
// out and the board relies on: every write stamps metadata.resourceVersion
// (the fake never does, so informers could not tell an update from a resync),
// a changed spec bumps metadata.generation (how a rollout is noticed), a stale
// update is refused with a Conflict, creates get a uid and a
// creationTimestamp, dry runs change nothing, and watches never overflow
// (they are served here, not by the fake). The resourceVersion it stamps is
// the tracker's own per-resource counter, so lists and watches agree.
type apiTracker struct {
	clienttesting.ObjectTracker
	mu       sync.Mutex
	rv       map[schema.GroupVersionResource]int64
	uids     int64
	now      func() metav1.Time
	name     string // cluster name, part of every uid
	watchers map[schema.GroupVersionResource]map[string][]*fanWatch
}

func newAPITracker(inner clienttesting.ObjectTracker, cluster string, now func() metav1.Time) *apiTracker {
	return &apiTracker{ObjectTracker: inner, rv: map[schema.GroupVersionResource]int64{}, now: now, name: cluster,
		watchers: map[schema.GroupVersionResource]map[string][]*fanWatch{}}
}

// emit sends an event to the watches of gvr in ns and in all namespaces;
// callers hold mu, so events keep the order of writes.
func (t *apiTracker) emit(gvr schema.GroupVersionResource, ns string, typ watch.EventType, obj runtime.Object) {
	for _, scope := range []string{ns, metav1.NamespaceAll} {
		for _, w := range t.watchers[gvr][scope] {
			w.push(watch.Event{Type: typ, Object: obj.DeepCopyObject()})
		}
		if ns == metav1.NamespaceAll {
			break
		}
	}
}

// Watch starts a watch; with a resourceVersion (after a list) it first
// delivers the objects written since, as the fake's tracker does.
func (t *apiTracker) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	var o metav1.ListOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	sel, err := newSelection(o)
	if err != nil {
		return nil, err
	}
	var from int64
	if o.ResourceVersion != "" {
		if from, err = strconv.ParseInt(o.ResourceVersion, 10, 64); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", o.ResourceVersion))
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	w := newFanWatch(sel)
	if list, err := t.ObjectTracker.List(gvr, gvr.GroupVersion().WithKind(kindOf[gvr]), ns); err == nil {
		items, _ := meta.ExtractList(list)
		for _, it := range items {
			m, err := meta.Accessor(it)
			if err != nil {
				continue
			}
			rv, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
			if rv > from {
				w.push(watch.Event{Type: watch.Added, Object: it})
			} else if w.seen != nil && sel.matches(it) {
				w.seen[objKey(it)] = true // the caller's list holds it
			}
		}
	}
	if t.watchers[gvr] == nil {
		t.watchers[gvr] = map[string][]*fanWatch{}
	}
	t.watchers[gvr][ns] = append(t.watchers[gvr][ns], w)
	w.done = func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		ws := t.watchers[gvr][ns]
		for i, x := range ws {
			if x == w {
				t.watchers[gvr][ns] = append(ws[:i:i], ws[i+1:]...)
				break
			}
		}
	}
	return w, nil
}

func (t *apiTracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(opts) > 0 && len(opts[0].DryRun) > 0 {
		_, err := t.ObjectTracker.Get(gvr, ns, name)
		return err
	}
	old, err := t.ObjectTracker.Get(gvr, ns, name)
	if err != nil {
		return err
	}
	if err := t.ObjectTracker.Delete(gvr, ns, name, opts...); err != nil {
		return err
	}
	t.emit(gvr, ns, watch.Deleted, old)
	return nil
}

// nextRV returns the version the tracker will give the next write of gvr.
func (t *apiTracker) nextRV(gvr schema.GroupVersionResource) int64 {
	cur, ok := t.rv[gvr]
	if !ok {
		cur = 1 // the tracker's starting point for an empty resource
	}
	return cur + 1
}

func (t *apiTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if m.GetUID() == "" {
		t.uids++
		m.SetUID(types.UID(fmt.Sprintf("%s-%08d", t.name, t.uids)))
	}
	if ts := m.GetCreationTimestamp(); ts.IsZero() {
		m.SetCreationTimestamp(t.now())
	}
	if m.GetGeneration() == 0 {
		m.SetGeneration(1)
	}
	rv := t.nextRV(gvr)
	m.SetResourceVersion(fmt.Sprint(rv))
	if len(opts) > 0 && len(opts[0].DryRun) > 0 {
		return nil
	}
	if err := t.ObjectTracker.Create(gvr, obj, ns, opts...); err != nil {
		return err
	}
	t.rv[gvr] = rv
	t.emit(gvr, m.GetNamespace(), watch.Added, obj)
	return nil
}

func (t *apiTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	dry := len(opts) > 0 && len(opts[0].DryRun) > 0
	return t.write(gvr, obj, ns, true, dry, func() error { return t.ObjectTracker.Update(gvr, obj, ns, opts...) })
}

// Patch receives the already patched object (built from a Get): no
// optimistic-concurrency check, as the API server retries patches itself.
func (t *apiTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	dry := len(opts) > 0 && len(opts[0].DryRun) > 0
	return t.write(gvr, obj, ns, false, dry, func() error { return t.ObjectTracker.Patch(gvr, obj, ns, opts...) })
}

func (t *apiTracker) write(gvr schema.GroupVersionResource, obj runtime.Object, ns string, checkRV, dryRun bool, store func() error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	old, err := t.ObjectTracker.Get(gvr, ns, m.GetName())
	if err != nil {
		return err
	}
	om, err := meta.Accessor(old)
	if err != nil {
		return err
	}
	if checkRV && m.GetResourceVersion() != "" && m.GetResourceVersion() != om.GetResourceVersion() {
		return apierrors.NewConflict(gvr.GroupResource(), m.GetName(),
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	// The server owns these: callers cannot change them.
	m.SetUID(om.GetUID())
	m.SetCreationTimestamp(om.GetCreationTimestamp())
	gen := om.GetGeneration()
	if !reflect.DeepEqual(specOf(old), specOf(obj)) {
		gen++
	}
	m.SetGeneration(gen)
	rv := t.nextRV(gvr)
	m.SetResourceVersion(fmt.Sprint(rv))
	if dryRun {
		m.SetResourceVersion(om.GetResourceVersion())
		return nil
	}
	if err := store(); err != nil {
		return err
	}
	t.rv[gvr] = rv
	t.emit(gvr, ns, watch.Modified, obj)
	return nil
}

// specOf returns an object's spec in unstructured form (nil when it has none).
func specOf(obj runtime.Object) any {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.Object["spec"]
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil
	}
	return m["spec"]
}
