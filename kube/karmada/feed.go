// Package karmada reads a fleet through Karmada's search proxy: one list and
// one watch per kind for every member, fanned out to a list/watch pair per
// member that the member's informers run as if they read the member itself,
// so its rows are built by the same code as a direct cluster's. Which member
// an object comes from is the proxy's cached-from-cluster annotation, looked
// up among the configured members: it names a row's cluster only when it is
// one of them, and never chooses where a request goes.
package karmada

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// CachedFromAnnotation names the member an object read through the proxy
// was cached from.
const CachedFromAnnotation = "resource.karmada.io/cached-from-cluster"

// Kind is one resource read through the proxy.
type Kind struct {
	Name  string // "apps", "deployments", ...
	List  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error)
	Watch func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error)
	// Example is the type of the proxy's objects; Cached that of what
	// Convert makes of them, which the members' informers hold.
	Example, Cached runtime.Object
	// Convert turns one of the proxy's objects (the annotation removed)
	// into the member's cached entry: decoded and trimmed once, here.
	Convert func(member string, obj runtime.Object) (runtime.Object, error)
}

// maxLog bounds each member's recent events; a member watch resuming from
// before them relists (from memory).
const maxLog = 4096

// Feed is one kind for every member: the reflector of the proxy's list and
// watch stores into it, and it hands each member its own objects and events.
type Feed struct {
	kind    Kind
	members map[string]*stream
	report  func(err error) // each call to the proxy: nil when it answered
	strays  strays          // objects naming a member not configured, dropped
	listed  chan struct{}   // closed once the proxy's first list is in
	once    sync.Once

	mu  sync.Mutex
	seq uint64 // the last event's number, over every member
}

type entry struct {
	obj runtime.Object
	rv  string // the proxy object's resourceVersion: unchanged on a relist, no event
}

type event struct {
	seq uint64
	typ watch.EventType
	obj runtime.Object
}

// stream is one member's share of the kind.
type stream struct {
	objs    map[string]entry // by namespace/name
	events  []event
	trimmed uint64        // events up to this number are no longer kept
	wake    chan struct{} // closed (and replaced) when an event is added
}

// NewFeed makes the feed of kind for the members; report hears each proxy
// call's outcome.
func NewFeed(kind Kind, members []string, report func(err error)) *Feed {
	f := &Feed{kind: kind, members: map[string]*stream{}, report: report, listed: make(chan struct{})}
	for _, m := range members {
		f.members[m] = &stream{objs: map[string]entry{}, wake: make(chan struct{})}
	}
	return f
}

// Run lists and watches the kind through the proxy until ctx ends.
func (f *Feed) Run(ctx context.Context) {
	r := cache.NewReflectorWithOptions(proxyLW{f}, f.kind.Example, f, cache.ReflectorOptions{Name: "karmada " + f.kind.Name})
	r.RunWithContext(ctx)
}

// memberOf is the configured member obj was cached from, the annotation
// taken off the object (rows read direct do not carry it).
func (f *Feed) memberOf(obj any) (*stream, string, metav1.Object, bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, "", nil, false
	}
	ann := m.GetAnnotations()
	name := ann[CachedFromAnnotation]
	s, ok := f.members[name]
	if !ok {
		return nil, name, m, false
	}
	if len(ann) == 1 {
		m.SetAnnotations(nil)
	} else {
		delete(ann, CachedFromAnnotation)
	}
	return s, name, m, true
}

func (f *Feed) Add(obj any) error    { return f.put(obj) }
func (f *Feed) Update(obj any) error { return f.put(obj) }
func (f *Feed) Resync() error        { return nil }

func (f *Feed) put(obj any) error {
	s, name, m, ok := f.memberOf(obj)
	if !ok {
		if m != nil {
			f.strays.add(strayKey(name, m))
		}
		return nil
	}
	conv, err := f.kind.Convert(name, obj.(runtime.Object))
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set(s, m.GetNamespace()+"/"+m.GetName(), entry{obj: conv, rv: m.GetResourceVersion()})
	return nil
}

// set stores e under key and adds its event, unless it is unchanged.
func (f *Feed) set(s *stream, key string, e entry) {
	old, had := s.objs[key]
	if had && old.rv == e.rv {
		return
	}
	s.objs[key] = e
	typ := watch.Added
	if had {
		typ = watch.Modified
	}
	f.emit(s, typ, e.obj)
}

func (f *Feed) Delete(obj any) error {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	s, name, m, ok := f.memberOf(obj)
	if !ok {
		if m != nil {
			f.strays.remove(strayKey(name, m))
		}
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	key := m.GetNamespace() + "/" + m.GetName()
	if old, had := s.objs[key]; had {
		delete(s.objs, key)
		f.emit(s, watch.Deleted, old.obj)
	}
	return nil
}

// Replace is a (re)list of the proxy: each member gets the differences as
// events, so its informer needs no relist.
func (f *Feed) Replace(list []any, _ string) error {
	type item struct {
		s   *stream
		key string
		e   entry
	}
	items := make([]item, 0, len(list))
	stray := map[string]bool{}
	for _, obj := range list {
		s, name, m, ok := f.memberOf(obj)
		if !ok {
			if key := strayKey(name, m); m != nil && key != "" {
				stray[key] = true
			}
			continue
		}
		conv, err := f.kind.Convert(name, obj.(runtime.Object))
		if err != nil {
			return err
		}
		items = append(items, item{s, m.GetNamespace() + "/" + m.GetName(), entry{conv, m.GetResourceVersion()}})
	}
	f.strays.replace(stray)
	f.mu.Lock()
	seen := map[*stream]map[string]bool{}
	for _, it := range items {
		if seen[it.s] == nil {
			seen[it.s] = map[string]bool{}
		}
		seen[it.s][it.key] = true
		f.set(it.s, it.key, it.e)
	}
	for _, s := range f.members {
		for key, old := range s.objs {
			if !seen[s][key] {
				delete(s.objs, key)
				f.emit(s, watch.Deleted, old.obj)
			}
		}
	}
	f.mu.Unlock()
	f.once.Do(func() { close(f.listed) })
	return nil
}

// emit adds an event to s and wakes its watches (f.mu held).
func (f *Feed) emit(s *stream, typ watch.EventType, obj runtime.Object) {
	f.seq++
	s.events = append(s.events, event{seq: f.seq, typ: typ, obj: obj})
	if len(s.events) > maxLog {
		drop := len(s.events) - maxLog/2
		s.trimmed = s.events[drop-1].seq
		s.events = append([]event(nil), s.events[drop:]...)
	}
	close(s.wake)
	s.wake = make(chan struct{})
}

// proxyLW is the proxy's list and watch: lists from its cache (only
// resourceVersion=0 is served from it), no streaming list (the proxy sends
// no initial events).
type proxyLW struct{ f *Feed }

func (l proxyLW) List(o metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), o)
}

func (l proxyLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), o)
}

func (l proxyLW) ListWithContext(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	o.ResourceVersion, o.ResourceVersionMatch, o.Limit, o.Continue = "0", "", 0, ""
	obj, err := l.f.kind.List(ctx, o)
	l.f.report(err)
	return obj, err
}

func (l proxyLW) WatchWithContext(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	w, err := l.f.kind.Watch(ctx, o)
	l.f.report(err)
	return w, err
}

func (proxyLW) IsWatchListSemanticsUnSupported() bool { return true }
