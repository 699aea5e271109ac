package kube

import (
	"github.com/hanzoai/driftboard/kube/wire"

	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/hanzoai/driftboard/model"
)

// seenEvent is one Event of the namespace, trimmed to what the detail shows
// plus the object it is about (matched when sent, because the app's pod sets
// change while the detail is open).
type seenEvent struct {
	kind, name string
	ev         model.Event
}

// RecentEvents reads, on demand, the Events about the App, its workload, its
// ReplicaSets and its pods: one LIST of the namespace's Events, filtered
// here (a field selector matches one involvedObject name, not a set of
// them), merged newest first. Nothing is kept after the call.
func (f *Fleet) RecentEvents(ctx context.Context, key model.Key) ([]model.Event, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, err
	}
	seen, _, err := c.listEvents(ctx, key)
	if err != nil {
		return nil, err
	}
	return c.matchEvents(s, key, app, seen), nil
}

// WatchEvents reads the app's Events like RecentEvents, sends them, then
// keeps a WATCH on the namespace's Events open and sends the merged list
// again after every change, until ctx ends (the detail closed): then the
// watch stops and the channel closes. Only the latest list waits in the
// channel; a slow reader skips intermediate ones. An identity that may not
// list Events gets an error wrapping model.ErrEventsForbidden.
func (f *Fleet) WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, err
	}
	seen, rv, err := c.listEvents(ctx, key)
	if err != nil {
		return nil, err
	}
	out := make(chan []model.Event, 1)
	send := func() {
		list := c.matchEvents(s, key, app, seen)
		select { // latest wins
		case <-out:
		default:
		}
		out <- list
	}
	send()
	events := c.clients.Kube.CoreV1().Events(key.Namespace)
	lw := &cache.ListWatch{WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		return events.Watch(ctx, o)
	}}
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			if rv == "" { // the watch expired (410 Gone): read the list afresh
				if seen, rv, err = c.listEvents(ctx, key); err != nil {
					return
				}
				send()
			}
			rw, err := watchtools.NewRetryWatcherWithContext(ctx, rv, lw)
			if err != nil {
				return
			}
			rv = followEvents(ctx, rw, seen, send)
			rw.Stop()
			<-rw.Done()
			if rv == "forbidden" {
				return
			}
		}
	}()
	return out, nil
}

// followEvents applies watch events to seen until the watch ends; it returns
// "" when the list must be read again, "forbidden" when it may not be.
func followEvents(ctx context.Context, rw *watchtools.RetryWatcher, seen map[types.UID]seenEvent, send func()) string {
	for {
		select {
		case <-ctx.Done():
			return ""
		case we, ok := <-rw.ResultChan():
			if !ok {
				return ""
			}
			switch we.Type {
			case watch.Added, watch.Modified:
				if e, ok := we.Object.(*corev1.Event); ok {
					seen[e.UID] = trimEvent(e)
					send()
				}
			case watch.Deleted:
				if e, ok := we.Object.(*corev1.Event); ok {
					delete(seen, e.UID)
					send()
				}
			case watch.Error:
				if apierrors.IsForbidden(apierrors.FromObject(we.Object)) {
					return "forbidden"
				}
				return ""
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

// listEvents is one LIST of the namespace's Events, trimmed, and the
// resourceVersion to watch from.
func (c *cluster) listEvents(ctx context.Context, key model.Key) (map[types.UID]seenEvent, string, error) {
	list, err := c.clients.Kube.CoreV1().Events(key.Namespace).List(ctx, metav1.ListOptions{})
	switch {
	case apierrors.IsForbidden(err):
		c.whoAmI(ctx) // names the identity in the refusal (asked once per cluster)
		return nil, "", fmt.Errorf("list events: Kubernetes refused: %s may not list events in namespace %s: %w",
			c.identity(), key.Namespace, errors.Join(model.ErrEventsForbidden, apiErr(err)))
	case err != nil:
		return nil, "", fmt.Errorf("list events in namespace %s: %w", key.Namespace, apiErr(err))
	}
	seen := make(map[types.UID]seenEvent, len(list.Items))
	for i := range list.Items {
		seen[list.Items[i].UID] = trimEvent(&list.Items[i])
	}
	return seen, list.ResourceVersion, nil
}

// matchEvents keeps the Events about the App, its workload, the workload's
// ReplicaSets (from the cache, every one: old and new during a rollout) and
// their pods, merged newest first.
func (c *cluster) matchEvents(s *scope, key model.Key, app model.AppObject, seen map[types.UID]seenEvent) []model.Event {
	we := c.workloadEntry(s, key, app.Role)
	var sets []string // name prefixes of the workload's pods
	if we != nil {
		if we.W.Kind == model.KindStatefulSet {
			sets = append(sets, key.Name+"-")
		} else {
			for _, obj := range s.byOwner("replicasets", key.Namespace, key.Name) {
				if rs, ok := obj.(*wire.PodSetEntry); ok {
					sets = append(sets, rs.Name+"-")
				}
			}
		}
	}
	about := func(kind, name string) bool {
		switch kind {
		case app.Kind:
			return name == key.Name
		case "Deployment", "StatefulSet":
			return we != nil && string(we.W.Kind) == kind && name == key.Name
		case "ReplicaSet":
			for _, p := range sets {
				if name == strings.TrimSuffix(p, "-") {
					return true
				}
			}
		case "Pod":
			for _, p := range sets {
				if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && !strings.Contains(rest, "-") {
					return true
				}
			}
		}
		return false
	}
	var in []model.Event
	for _, e := range seen {
		if about(e.kind, e.name) {
			in = append(in, e.ev)
		}
	}
	return model.MergeEvents(in, model.MaxEvents)
}

// trimEvent keeps what the detail shows. Events recorded through
// events.k8s.io carry their count and last time in series.
func trimEvent(e *corev1.Event) seenEvent {
	count, last := e.Count, e.LastTimestamp.Time
	if sr := e.Series; sr != nil {
		count = max(count, sr.Count)
		if sr.LastObservedTime.After(last) {
			last = sr.LastObservedTime.Time
		}
	}
	for _, t := range []time.Time{e.EventTime.Time, e.FirstTimestamp.Time, e.CreationTimestamp.Time} {
		if last.IsZero() {
			last = t
		}
	}
	ref := e.InvolvedObject
	return seenEvent{kind: ref.Kind, name: ref.Name, ev: model.Event{
		Object: ref.Kind + " " + ref.Name, Type: e.Type, Reason: e.Reason, Message: e.Message, Count: count, Last: last,
	}}
}
