package demo

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
)

// selection is a list/watch's label and field selectors, applied the way the
// API server applies them (the fake ignores field selectors entirely, and
// label selectors on watches).
type selection struct {
	labels labels.Selector
	fields fields.Selector
}

func newSelection(o metav1.ListOptions) (selection, error) {
	s := selection{labels: labels.Everything(), fields: fields.Everything()}
	var err error
	if o.LabelSelector != "" {
		if s.labels, err = labels.Parse(o.LabelSelector); err != nil {
			return s, fmt.Errorf("label selector %q: %w", o.LabelSelector, err)
		}
	}
	if o.FieldSelector != "" {
		if s.fields, err = fields.ParseSelector(o.FieldSelector); err != nil {
			return s, fmt.Errorf("field selector %q: %w", o.FieldSelector, err)
		}
	}
	return s, nil
}

func (s selection) everything() bool { return s.labels.Empty() && s.fields.Empty() }

func (s selection) matches(obj runtime.Object) bool {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	if !s.labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if s.fields.Empty() {
		return true
	}
	set := fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}
	switch o := obj.(type) { // the board's selectors, without a conversion
	case *corev1.Pod:
		set["status.phase"], set["spec.nodeName"] = string(o.Status.Phase), o.Spec.NodeName
	case *appsv1.ReplicaSet:
		set["status.replicas"] = strconv.Itoa(int(o.Status.Replicas))
	}
	var u map[string]any
	for _, r := range s.fields.Requirements() {
		if _, ok := set[r.Field]; ok {
			continue
		}
		if u == nil {
			var err error
			if u, err = runtime.DefaultUnstructuredConverter.ToUnstructured(obj); err != nil {
				return false
			}
		}
		set[r.Field] = fieldValue(u, r.Field)
	}
	return s.fields.Matches(set)
}

// fieldValue reads a dotted field path the way the API server's field
// selectors see it; an absent counter reads as "0".
func fieldValue(u map[string]any, path string) string {
	v, found, err := unstructured.NestedFieldNoCopy(u, strings.Split(path, ".")...)
	if err != nil || !found || v == nil {
		if strings.HasSuffix(path, "replicas") || strings.HasSuffix(path, "Replicas") {
			return "0"
		}
		return ""
	}
	return fmt.Sprint(v)
}

// filterList applies the field selector to a list the tracker returned
// (the typed fake clients filter labels themselves afterwards).
func filterList(list runtime.Object, s selection) (runtime.Object, error) {
	if s.fields.Empty() {
		return list, nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	kept := items[:0]
	for _, it := range items {
		if s.matches(it) {
			kept = append(kept, it)
		}
	}
	return list, meta.SetList(list, kept)
}

// listReaction lists through the tracker and honours field selectors.
func listReaction(tr clienttesting.ObjectTracker) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		la, ok := action.(clienttesting.ListActionImpl)
		if !ok {
			return false, nil, nil
		}
		sel, err := newSelection(la.ListOptions)
		if err != nil {
			return true, nil, err
		}
		list, err := tr.List(la.GetResource(), la.GetKind(), la.GetNamespace(), la.ListOptions)
		if err != nil {
			return true, nil, err
		}
		list, err = filterList(list, sel)
		return true, list, err
	}
}

func objKey(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// fanWatch is one watch on the apiTracker. Events are queued without bound
// and without blocking the writer: the fake's own watches hold 100 events and
// panic when full, which a burst of simulator writes against a busy informer
// reaches.
type fanWatch struct {
	sel   selection
	seen  map[string]bool // objects in the selection; nil when it selects everything
	mu    sync.Mutex
	queue []watch.Event
	ready chan struct{}
	out   chan watch.Event
	stop  chan struct{}
	once  sync.Once
	done  func() // unregisters the watch
}

func newFanWatch(sel selection) *fanWatch {
	w := &fanWatch{sel: sel, ready: make(chan struct{}, 1), out: make(chan watch.Event), stop: make(chan struct{})}
	if !sel.everything() {
		w.seen = map[string]bool{}
	}
	go w.run()
	return w
}

func (w *fanWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		if w.done != nil {
			w.done()
		}
	})
}

func (w *fanWatch) ResultChan() <-chan watch.Event { return w.out }

// push queues an event; the tracker calls it in write order.
func (w *fanWatch) push(ev watch.Event) {
	if w.seen != nil {
		var keep bool
		if ev, keep = translate(ev, w.sel, w.seen); !keep {
			return
		}
	}
	w.mu.Lock()
	w.queue = append(w.queue, ev)
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

func (w *fanWatch) run() {
	defer close(w.out)
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.mu.Unlock()
			select {
			case <-w.stop:
				return
			case <-w.ready:
			}
			continue
		}
		ev := w.queue[0]
		w.queue[0] = watch.Event{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case <-w.stop:
			return
		case w.out <- ev:
		}
	}
}

// translate turns an event into what a watch with selectors sees: objects
// entering the selection are added, objects leaving it deleted.
func translate(ev watch.Event, sel selection, seen map[string]bool) (watch.Event, bool) {
	if ev.Object == nil || ev.Type == watch.Error || ev.Type == watch.Bookmark {
		return ev, true
	}
	key := objKey(ev.Object)
	was, now := seen[key], sel.matches(ev.Object)
	switch ev.Type {
	case watch.Deleted:
		delete(seen, key)
		return ev, was
	case watch.Added:
		seen[key] = now
		return ev, now
	}
	seen[key] = now
	switch {
	case was && now:
		return ev, true
	case now:
		return watch.Event{Type: watch.Added, Object: ev.Object}, true
	case was:
		return watch.Event{Type: watch.Deleted, Object: ev.Object}, true
	}
	return ev, false
}

// watchReaction serves watches from the apiTracker.
func watchReaction(tr *apiTracker) clienttesting.WatchReactionFunc {
	return func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := tr.Watch(action.GetResource(), action.GetNamespace(), opts)
		return true, w, err
	}
}
