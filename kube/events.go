package kube

import (
	"context"
	"fmt"

	"github.com/hanzoai/driftboard/kube/events"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// RecentEvents reads, on demand, the Events about the App, its workload, its
// ReplicaSets and its pods: a field-selected LIST per selection, only the
// app's kept, merged newest first.
func (f *Fleet) RecentEvents(ctx context.Context, key model.Key) ([]model.Event, error) {
	src, err := f.eventSource(key)
	if err != nil {
		return nil, err
	}
	return events.Recent(ctx, src)
}

// WatchEvents reads the app's Events like RecentEvents, sends them, then
// keeps a WATCH per selection open and sends the merged list again after
// changes, until ctx ends (the detail closed): then the watches stop and
// the channel closes. An identity that may not list Events gets an error
// wrapping model.ErrEventsForbidden.
func (f *Fleet) WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error) {
	src, err := f.eventSource(key)
	if err != nil {
		return nil, err
	}
	return events.Watch(ctx, src)
}

// eventSource is the row's App for the events package: its workload and
// ReplicaSets read from the cache each time they are asked for (a rollout
// adds ReplicaSets while the detail is open).
func (f *Fleet) eventSource(key model.Key) (*events.Source, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, err
	}
	return &events.Source{
		Events: c.clients.Kube.CoreV1().Events(key.Namespace), Key: key, AppKind: app.Kind,
		Workload: func() *events.Workload {
			we := c.workloadEntry(s, key, app.Role)
			if we == nil {
				return nil
			}
			return &events.Workload{Kind: we.W.Kind, UID: string(we.UID), RestartedAt: we.W.TemplateAnnotations[model.RestartedAtAnnotation]}
		},
		ReplicaSets: func() []string {
			var out []string
			for _, obj := range s.byOwner("replicasets", key.Namespace, key.Name) {
				if rs, ok := obj.(*wire.PodSetEntry); ok {
					out = append(out, rs.Name)
				}
			}
			return out
		},
		Identity: func(ctx context.Context) string {
			c.whoAmI(ctx) // names the identity in the refusal (asked once per cluster)
			return c.identity()
		},
		Explain: apiErr,
	}, nil
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
