package kube

import (
	"context"
	"fmt"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// WaitRollout follows the rollout of the App's workload from the informer
// caches (no polling: it wakes on cache changes) until it completes, gets
// stuck (ProgressDeadlineExceeded, failing pods), or ctx ends. progress, if
// not nil, receives the workload view each time it changes. After a Restart
// it waits for the cache to see the restart's generation first.
func (f *Fleet) WaitRollout(ctx context.Context, key model.Key, progress func(model.WorkloadView)) error {
	c := f.byName[key.Cluster]
	if c == nil {
		return fmt.Errorf("follow rollout of %s: cluster %q is not on the board", key, key.Cluster)
	}
	changed, unsubscribe := f.subscribe()
	defer unsubscribe()
	var last model.WorkloadView
	first := true
	for {
		view, done, err := f.rolloutStatus(c, key)
		if progress != nil && (first || progressed(last, view)) {
			progress(view)
		}
		first, last = false, view
		if done || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("follow rollout of %s: %w (last: %s)", key, ctx.Err(), view.Message)
		case <-changed:
		}
	}
}

func progressed(a, b model.WorkloadView) bool {
	return a.Rollout != b.Rollout || a.Updated != b.Updated || a.Ready != b.Ready || a.Available != b.Available ||
		a.Desired != b.Desired || a.Message != b.Message || a.SpecTag != b.SpecTag || a.RestartedAt != b.RestartedAt
}

// rolloutStatus applies kubectl's "rollout status" rules to the cached workload.
func (f *Fleet) rolloutStatus(c *cluster, key model.Key) (model.WorkloadView, bool, error) {
	app, wl, ok := c.observe(key)
	if !ok {
		return model.WorkloadView{}, false, fmt.Errorf("follow rollout of %s: the App is gone", key)
	}
	view := model.Build(app, wl, model.Release{State: model.ReleaseOff}, f.opts.Now()).Workload
	if wl == nil {
		return view, false, fmt.Errorf("follow rollout of %s: its workload is gone", key)
	}
	f.mu.Lock()
	want := f.expectGen[key]
	f.mu.Unlock()
	if wl.Generation < want || wl.ObservedGeneration < wl.Generation {
		return view, false, nil // the cache or the controller has not caught up yet
	}
	if view.Rollout == model.RolloutStuck {
		return view, false, fmt.Errorf("rollout of %s %s is stuck: %s", wl.Kind, key.Name, view.Message)
	}
	desired := view.Desired
	s := c.scopeFor(key.Namespace)
	var we *wire.WorkloadEntry
	if s != nil {
		we, _ = s.get(kindResource(wl.Kind), key.Namespace, key.Name).(*wire.WorkloadEntry)
	}
	if we == nil {
		return view, false, nil
	}
	switch wl.Kind {
	case model.KindDeployment:
		if wl.UpdatedReplicas < desired || we.StatusReplicas > wl.UpdatedReplicas || wl.AvailableReplicas < wl.UpdatedReplicas {
			return view, false, nil
		}
	case model.KindStatefulSet:
		// kubectl's rollout status for StatefulSets: OnDelete has no rollout
		// to follow; with a partition, done when replicas-partition pods are
		// updated; else when the current revision is the update revision.
		if we.OnDelete {
			return view, false, fmt.Errorf("follow rollout of %s: StatefulSet %s uses the OnDelete update strategy, so its pods change only when deleted; there is no rollout to wait for (delete the pods to restart them)", key, key.Name)
		}
		if wl.ReadyReplicas < desired {
			return view, false, nil
		}
		if we.Partition != nil {
			return view, wl.UpdatedReplicas >= desired-*we.Partition, nil
		}
		if we.UpdateRevision != "" && we.UpdateRevision != we.CurrentRevision {
			return view, false, nil
		}
	}
	return view, true, nil
}

func kindResource(k model.WorkloadKind) string {
	if k == model.KindStatefulSet {
		return "statefulsets"
	}
	return "deployments"
}
