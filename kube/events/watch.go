package kube

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

// eventStreams are the selections that cover the App, its workload, its
// ReplicaSets and their pods.
func (c *cluster) eventStreams(s *scope, key model.Key, app model.AppObject) []eventStream {
	out := []eventStream{{fields.OneTermEqualSelector("involvedObject.name", key.Name).String()}}
	we := c.workloadEntry(s, key, app.Role)
	if we == nil {
		return out
	}
	if we.W.Kind != model.KindStatefulSet {
		out = append(out, eventStream{fields.OneTermEqualSelector("involvedObject.kind", "ReplicaSet").String()})
	}
	return append(out, eventStream{fields.OneTermEqualSelector("involvedObject.kind", "Pod").String()})
}

// RecentEvents reads, on demand, the Events about the App, its workload, its
// ReplicaSets and its pods: a field-selected LIST per selection, only the
// app's kept (at most maxKeptEvents), merged newest first.
func (f *Fleet) RecentEvents(ctx context.Context, key model.Key) ([]model.Event, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, err
	}
	set := newEventSet(c, s, key, app)
	for i, st := range c.eventStreams(s, key, app) {
		if _, err := c.listEvents(ctx, key, st, i, set); err != nil {
			return nil, err
		}
	}
	return set.merged(), nil
}

// WatchEvents reads the app's Events like RecentEvents, sends them, then
// keeps a WATCH per selection open and sends the merged list again after
// changes, until ctx ends (the detail closed): then the watches stop and
// the channel closes. A watch event costs its own match; the merge runs
// only when the reader is ready for a list, so a burst costs one. An
// identity that may not list Events gets an error wrapping
// model.ErrEventsForbidden.
func (f *Fleet) WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, err
	}
	set := newEventSet(c, s, key, app)
	streams := c.eventStreams(s, key, app)
	rvs := make([]string, len(streams))
	for i, st := range streams {
		if rvs[i], err = c.listEvents(ctx, key, st, i, set); err != nil {
			return nil, err
		}
	}
	ctx, stop := context.WithCancel(ctx)
	out := make(chan []model.Event)
	ended := make(chan struct{}, len(streams))
	for i, st := range streams {
		go func() {
			c.followEvents(ctx, key, st, i, rvs[i], set)
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

// followEvents watches one selection from rv until ctx ends or the watch is
// refused, reading the list afresh when the watch expired.
func (c *cluster) followEvents(ctx context.Context, key model.Key, st eventStream, i int, rv string, set *eventSet) {
	events := c.clients.Kube.CoreV1().Events(key.Namespace)
	lw := &cache.ListWatch{WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		o.FieldSelector = st.selector
		return events.Watch(ctx, o)
	}}
	for ctx.Err() == nil {
		if rv == "" { // the watch expired (410 Gone): read the list afresh
			set.forget(i)
			var err error
			if rv, err = c.listEvents(ctx, key, st, i, set); err != nil {
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

// eventTarget finds the cluster, scope and App of a row.
func (f *Fleet) eventTarget(key model.Key) (*cluster, *scope, model.AppObject, error) {
	c := f.byName[key.Cluster]
	switch {
	case c == nil:
		return nil, nil, model.AppObject{}, fmt.Errorf("cluster %q is not on the board", key.Cluster)
	case !c.isSynced():
		return nil, nil, model.AppObject{}, fmt.Errorf("cluster %s is still syncing", key.Cluster)
	}
	s := c.scopeFor(key.Namespace)
	if s == nil {
		return nil, nil, model.AppObject{}, fmt.Errorf("namespace %s is not watched on cluster %s", key.Namespace, key.Cluster)
	}
	app, ok := appOf(s, key)
	if !ok {
		return nil, nil, model.AppObject{}, fmt.Errorf("app %s/%s is not on cluster %s", key.Namespace, key.Name, key.Cluster)
	}
	return c, s, app, nil
}

// listEvents reads one selection a page at a time into the set (which keeps
// only the app's) and returns the resourceVersion to watch from.
func (c *cluster) listEvents(ctx context.Context, key model.Key, st eventStream, stream int, set *eventSet) (string, error) {
	opts := metav1.ListOptions{FieldSelector: st.selector, Limit: eventPage}
	for {
		list, err := c.clients.Kube.CoreV1().Events(key.Namespace).List(ctx, opts)
		switch {
		case apierrors.IsForbidden(err):
			c.whoAmI(ctx) // names the identity in the refusal (asked once per cluster)
			return "", fmt.Errorf("list events: Kubernetes refused: %s may not list events in namespace %s: %w",
				c.identity(), key.Namespace, errors.Join(model.ErrEventsForbidden, apiErr(err)))
		case err != nil:
			return "", fmt.Errorf("list events in namespace %s: %w", key.Namespace, apiErr(err))
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
