package kube

import (
	"context"
	"errors"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
)

// readSwitch is a proxied member's list and watch of one kind: the proxy's
// feed, or the member itself while it is read direct. A watch ends when
// that changes, and the informer relists from the other.
type readSwitch struct {
	fs            *karmadaFeeds
	member, what  string
	proxy, direct lwFuncs

	mu         sync.Mutex
	listDirect bool // where the last list came from: a watch resumes from there
}

type lwFuncs struct {
	list  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error)
	watch func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error)
	// entry makes a watched object the informer's entry: the reflector
	// checks each event's type against the feed's, before the transform.
	entry cache.TransformFunc
}

func (r *readSwitch) list(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	direct, switched := r.fs.reading(r.member)
	r.mu.Lock()
	moved := direct != r.listDirect
	r.listDirect = direct
	r.mu.Unlock()
	if !direct { // waits for the proxy's first list: a switch ends the wait
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-switched:
				cancel()
			case <-ctx.Done():
			}
		}()
		return r.proxy.list(ctx, o)
	}
	if moved { // the version the informer had is the proxy feed's
		o.ResourceVersion, o.ResourceVersionMatch = "", ""
	}
	l, err := r.direct.list(ctx, o)
	var refused apierrors.APIStatus // an answer too: a kind the member does not serve, a refusal
	if err == nil || errors.As(err, &refused) {
		r.fs.listedDirect(r.member, r.what)
	}
	return l, err
}

func (r *readSwitch) watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	direct, switched := r.fs.reading(r.member)
	r.mu.Lock()
	listed := r.listDirect
	r.mu.Unlock()
	if direct != listed {
		return nil, apierrors.NewResourceExpired("the member is now read " + map[bool]string{true: "direct", false: "through the proxy"}[direct])
	}
	from := r.proxy
	if direct {
		from = r.direct
	}
	w, err := from.watch(ctx, o)
	if err != nil {
		return nil, err
	}
	return endOnSwitch(w, switched, from.entry), nil
}

// endOnSwitch passes w's events on, as entries, until switched is closed.
func endOnSwitch(w watch.Interface, switched <-chan struct{}, entry cache.TransformFunc) watch.Interface {
	out := &switchedWatch{ch: make(chan watch.Event), done: make(chan struct{})}
	go func() {
		defer close(out.ch)
		defer w.Stop()
		for {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				if entry != nil && ev.Type != watch.Error {
					if obj, err := entry(ev.Object); err == nil {
						ev.Object = obj.(runtime.Object)
					}
				}
				select {
				case out.ch <- ev:
				case <-out.done:
					return
				case <-switched:
					return
				}
			case <-out.done:
				return
			case <-switched:
				return
			}
		}
	}()
	return out
}

type switchedWatch struct {
	ch   chan watch.Event
	done chan struct{}
	once sync.Once
}

func (w *switchedWatch) Stop()                          { w.once.Do(func() { close(w.done) }) }
func (w *switchedWatch) ResultChan() <-chan watch.Event { return w.ch }

// directLW is the member's own list and watch of what, as its context's
// identity: where its informers read while the proxy is degraded.
func (c *cluster) directLW(what string) (lwFuncs, bool) {
	workloads := c.clients.workloadClient()
	switch what {
	case "apps":
		src := c.appSource(appsGVR, "")
		return lwOf(src.list, src.watch, wire.TransformApp(c.name)), true
	case "deployments":
		d := workloads.Deployments("")
		return lwOf(d.List, d.Watch, wire.TransformDeployment), true
	case "statefulsets":
		s := workloads.StatefulSets("")
		return lwOf(s.List, s.Watch, wire.TransformStatefulSet), true
	case "replicasets":
		rs := workloads.ReplicaSets("")
		return lwOf(rs.List, rs.Watch, wire.TransformReplicaSet), true
	case "namespaces":
		ns := c.clients.Kube.CoreV1().Namespaces()
		return lwOf(ns.List, ns.Watch, nil), true
	case cdApplicationsGVR.GroupResource().String():
		ri := c.clients.Dynamic.Resource(cdApplicationsGVR)
		return lwOf(ri.List, ri.Watch, nil), true
	}
	return lwFuncs{}, false
}

func lwOf[L runtime.Object](list func(context.Context, metav1.ListOptions) (L, error),
	w func(context.Context, metav1.ListOptions) (watch.Interface, error), entry cache.TransformFunc) lwFuncs {
	return lwFuncs{watch: w, entry: entry, list: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		l, err := list(ctx, o)
		if err != nil {
			return nil, err // not a typed nil
		}
		return l, nil
	}}
}
