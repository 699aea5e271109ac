package events

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/hanzoai/driftboard/model"
)

// eventPage is the page size of an Event LIST: a namespace with many Events
// is read a page at a time, keeping only the app's.
const eventPage = 500

// eventStream is one field-selected LIST and WATCH of the namespace's
// Events: by the App's name (the App and its workload), or by kind for its
// ReplicaSets and pods (whose names a selector cannot match by prefix),
// matched by name on arrival.
type eventStream struct {
	selector string
}

// streams are the selections that cover the App, its workload, its
// ReplicaSets and their pods.
func (src *Source) streams() []eventStream {
	out := []eventStream{{fields.OneTermEqualSelector("involvedObject.name", src.Key.Name).String()}}
	w := src.Workload()
	if w == nil {
		return out
	}
	if w.Kind != model.KindStatefulSet {
		out = append(out, eventStream{fields.OneTermEqualSelector("involvedObject.kind", "ReplicaSet").String()})
	}
	return append(out, eventStream{fields.OneTermEqualSelector("involvedObject.kind", "Pod").String()})
}

// Recent reads, on demand, the Events about the App, its workload, its
// ReplicaSets and its pods: a field-selected LIST per selection, only the
// app's kept (at most maxKeptEvents), merged newest first.
func Recent(ctx context.Context, src *Source) ([]model.Event, error) {
	set := newEventSet(src)
	for i, st := range src.streams() {
		if _, err := src.list(ctx, st, i, set); err != nil {
			return nil, err
		}
	}
	return set.merged(), nil
}

// Watch reads the app's Events like Recent, sends them, then
// keeps a WATCH per selection open and sends the merged list again after
// changes, until ctx ends (the detail closed): then the watches stop and
// the channel closes. A watch event costs its own match; the merge runs
// only when the reader is ready for a list, so a burst costs one. An
// identity that may not list Events gets an error wrapping
// model.ErrEventsForbidden.
func Watch(ctx context.Context, src *Source) (<-chan []model.Event, error) {
	set := newEventSet(src)
	streams := src.streams()
	rvs := make([]string, len(streams))
	for i, st := range streams {
		var err error
		if rvs[i], err = src.list(ctx, st, i, set); err != nil {
			return nil, err
		}
	}
	ctx, stop := context.WithCancel(ctx)
	out := make(chan []model.Event)
	ended := make(chan struct{}, len(streams))
	for i, st := range streams {
		go func() {
			src.follow(ctx, st, i, rvs[i], set)
			ended <- struct{}{}
		}()
	}
	go func() { // one stream ending for good (forbidden) ends them all
		<-ended
		stop()
	}()
	go func() {
		defer close(out)
		for {
			select { // what changed so far is in this list
			case <-set.changed:
			default:
			}
			select {
			case out <- set.merged():
			case <-ctx.Done():
				return
			}
			select {
			case <-set.changed:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// follow watches one selection from rv until ctx ends or the watch is
// refused, reading the list afresh when the watch expired.
func (src *Source) follow(ctx context.Context, st eventStream, i int, rv string, set *eventSet) {
	events := src.Events
	lw := &cache.ListWatch{WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		o.FieldSelector = st.selector
		return events.Watch(ctx, o)
	}}
	for ctx.Err() == nil {
		if rv == "" { // the watch expired (410 Gone): read the list afresh
			set.forget(i)
			var err error
			if rv, err = src.list(ctx, st, i, set); err != nil {
				return
			}
		}
		rw, err := watchtools.NewRetryWatcherWithContext(ctx, rv, lw)
		if err != nil {
			return
		}
		rv = applyEvents(ctx, rw, i, set)
		rw.Stop()
		<-rw.Done()
		if rv == "forbidden" {
			return
		}
	}
}

// applyEvents applies watch events to the set until the watch ends; it
// returns "" when the list must be read again, "forbidden" when it may not.
func applyEvents(ctx context.Context, rw *watchtools.RetryWatcher, stream int, set *eventSet) string {
	for {
		select {
		case <-ctx.Done():
			return ""
		case we, ok := <-rw.ResultChan():
			if !ok {
				return ""
			}
			e, _ := we.Object.(*corev1.Event)
			switch {
			case we.Type == watch.Error:
				if apierrors.IsForbidden(apierrors.FromObject(we.Object)) {
					return "forbidden"
				}
				return ""
			case e == nil:
			case we.Type == watch.Deleted:
				set.remove(e.UID)
			case we.Type == watch.Added || we.Type == watch.Modified:
				set.add(stream, e)
			}
		}
	}
}

// list reads one selection a page at a time into the set (which keeps
// only the app's) and returns the resourceVersion to watch from.
func (src *Source) list(ctx context.Context, st eventStream, stream int, set *eventSet) (string, error) {
	ns := src.Key.Namespace
	opts := metav1.ListOptions{FieldSelector: st.selector, Limit: eventPage}
	for {
		list, err := src.Events.List(ctx, opts)
		switch {
		case apierrors.IsForbidden(err):
			return "", fmt.Errorf("list events: Kubernetes refused: %s may not list events in namespace %s: %w",
				src.Identity(ctx), ns, errors.Join(model.ErrEventsForbidden, src.Explain(err)))
		case err != nil:
			return "", fmt.Errorf("list events in namespace %s: %w", ns, src.Explain(err))
		}
		for i := range list.Items {
			set.add(stream, &list.Items[i])
		}
		if list.Continue == "" {
			return list.ResourceVersion, nil
		}
		opts.Continue = list.Continue
	}
}
