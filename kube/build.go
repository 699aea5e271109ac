package kube

import (
	"slices"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
	"github.com/hanzoai/driftboard/model/store"
)

// reusedDirtyMax bounds the dirty-row maps Snapshot keeps for the next batch.
const reusedDirtyMax = 64

// Snapshot rebuilds the rows whose objects changed since the last call and
// returns the store's immutable snapshot. Rows of a cluster that has not
// synced yet are provisional: built from the Apps seen so far, with the
// workloads not listed yet pending (never missing); the sync rebuilds them.
func (f *Fleet) Snapshot() *store.Snapshot {
	f.buildMu.Lock()
	defer f.buildMu.Unlock()

	f.store.SetReleaseChecks(f.releaseChecks())
	states := f.states()
	if !sameStates(states, f.lastStates) {
		f.store.SetClusters(states)
		f.lastStates = states
	}
	// Offline first, so rows upserted below inherit it. A syncing cluster's
	// rows are provisional, not offline: they say what is pending.
	for _, st := range states {
		offline := st.Phase != model.ConnLive && st.Phase != model.ConnSyncing
		if f.offlineSet[st.Name] != offline {
			f.store.SetOffline(st.Name, offline)
			f.offlineSet[st.Name] = offline
		}
	}

	f.mu.Lock()
	dirty, all := f.dirty, f.allDirty
	f.dirty, f.allDirty = f.spareDirty, false
	f.mu.Unlock()
	defer func() { // under churn a map per snapshot is most of what a small batch allocates
		if len(dirty) <= reusedDirtyMax {
			clear(dirty)
			f.spareDirty = dirty
		} else { // a large map would cost its size to clear, every time
			f.spareDirty = map[model.Key]struct{}{}
		}
	}()
	if all {
		for _, c := range f.clusters {
			for _, k := range c.appKeys() {
				dirty[k] = struct{}{}
			}
		}
	}
	for _, c := range f.clusters {
		if c.isSynced() { // an Application changed: its rows, and the chart rows it makes or drops
			for _, k := range c.cd.Refresh() {
				dirty[k] = struct{}{}
			}
		}
	}

	now := f.opts.Now()
	// Stored in one pass, under one lock; each row in its own allocation,
	// which the store takes over (no second copy).
	built := make([]*model.AppView, 0, len(dirty))
	for k := range dirty {
		c := f.byName[k.Cluster]
		if c == nil {
			continue
		}
		var v model.AppView
		var ok bool
		if !c.isSynced() { // the sync marks every row again (endProvisional)
			v, ok = f.provisionalRow(c, k, now)
		} else {
			v, ok = f.rebuild(c, k, now)
			c.builtSynced(k)
		}
		if ok {
			row := new(model.AppView)
			*row = v
			built = append(built, row)
		}
	}
	f.store.UpsertRows(built)
	return f.store.Snapshot()
}

// rebuild builds row k afresh from the caches (ok), or deletes it when its
// App is gone (ok false). The caller stores the rows it returns.
func (f *Fleet) rebuild(c *cluster, k model.Key, now time.Time) (v model.AppView, ok bool) {
	app, wl, ok := c.observe(k)
	if !ok {
		if v, ok := f.chartRow(c, k, now); ok { // no App CR: a chart-plane service?
			c.pods.Want(k, "", false) // pods are watched for App rows only
			return v, true
		}
		f.store.Delete(k)
		c.mu.Lock()
		delete(c.stable, k)
		c.mu.Unlock()
		c.pods.Want(k, "", false)
		return model.AppView{}, false
	}
	f.rowsBuilt.Add(1)
	v = model.Build(app, wl, f.release(app), now)
	f.messages.share(v.Drift.Flags)
	v.Git = c.gitSync(app)
	sel := ""
	if s := c.scopeFor(k.Namespace); s != nil {
		if we := c.workloadEntry(s, k, app.Role); we != nil {
			sel = we.Selector
		}
	}
	c.pods.Want(k, sel, v.WantsPodWatch())
	return v, true
}

func (f *Fleet) releaseChecks() model.ReleaseChecks {
	if f.opts.Releases == nil {
		return model.ReleaseChecks{Off: true, Remaining: -1}
	}
	if rc, ok := f.opts.Releases.(ReleaseChecker); ok {
		return rc.Checks()
	}
	return model.ReleaseChecks{Remaining: -1}
}

func (f *Fleet) release(app model.AppObject) model.Release {
	if f.opts.Releases == nil {
		return model.Release{State: model.ReleaseOff, Detail: "release checks are off"}
	}
	switch im, err := imageref.Parse(app.ImageRepository); {
	case app.ImageRepository == "" || err == nil && im.Repository == "":
		return model.Release{State: model.ReleaseOff, Detail: "no image to check"}
	case err != nil: // there is an image, and the row's problems say what is wrong with it
		return model.Release{State: model.ReleaseOff, Detail: "not looked up: the image reference is malformed"}
	}
	// The full reference: the registry host decides where releases are read.
	return f.opts.Releases.Lookup(app.ImageRepository, app.ImageTag)
}

// observe gathers one row's inputs from the caches: the App (or Service),
// the same-name workload, what its pods really run, and which of them fail
// (where they are watched).
func (c *cluster) observe(k model.Key) (model.AppObject, *model.Workload, bool) {
	s := c.scopeFor(k.Namespace)
	if s == nil {
		return model.AppObject{}, nil, false
	}
	ae, _ := s.get("apps", k.Namespace, k.Name).(*wire.AppEntry)
	if ae == nil {
		ae, _ = s.get("services", k.Namespace, k.Name).(*wire.AppEntry)
	}
	if ae == nil {
		return model.AppObject{}, nil, false
	}
	app := ae.App
	app.NamespaceLabels = c.namespaceLabelsOf(k.Namespace)
	return app, c.observeWorkload(s, k, app), true
}

// observeWorkload is the App's same-name workload from the caches: nil when
// there is none, or unreadable.
func (c *cluster) observeWorkload(s *scope, k model.Key, app model.AppObject) *model.Workload {
	we := c.workloadEntry(s, k, app.Role)
	if we == nil {
		if model.ClassOfApp(app).MakesWorkload() {
			if u := c.unreadable(s, k.Namespace, k.Name, model.ExpectedKind(app.Role)); u != nil {
				return u
			}
		}
		return nil
	}
	wl := c.workload(s, k, we)
	wl.OwnedByApp = we.OwnerUID != "" && we.OwnerUID == app.UID
	return wl
}

// workload is the cached workload with what its pods run and which of its
// watched pods fail (a copy; the cache entry is never mutated).
func (c *cluster) workload(s *scope, k model.Key, we *wire.WorkloadEntry) *model.Workload {
	wl := we.W
	switch wl.Kind {
	case model.KindDeployment:
		wl.PodSets = replicaSetPodSets(s, k, we)
	case model.KindStatefulSet:
		wl.PodSets = c.statefulSetPodSets(k, we)
	}
	wl.FailingPods = c.failingPods(k, s, we)
	return &wl
}

// workloadEntry finds the same-name workload, the kind the role expects first.
func (c *cluster) workloadEntry(s *scope, k model.Key, role string) *wire.WorkloadEntry {
	order := []string{"deployments", "statefulsets"}
	if model.ExpectedKind(role) == model.KindStatefulSet {
		order = []string{"statefulsets", "deployments"}
	}
	for _, what := range order {
		if we, ok := s.get(what, k.Namespace, k.Name).(*wire.WorkloadEntry); ok {
			return we
		}
	}
	return nil
}

// replicaSetPodSets lists the Deployment's ReplicaSets that have pods; the
// one with the Deployment's revision runs the current template.
func replicaSetPodSets(s *scope, k model.Key, we *wire.WorkloadEntry) []model.PodSet {
	if _, watched := s.inf["replicasets"]; !watched {
		return nil
	}
	objs := s.byOwner("replicasets", k.Namespace, k.Name)
	sets := make([]model.PodSet, 0, len(objs))
	for _, obj := range objs {
		if rs, ok := obj.(*wire.PodSetEntry); ok && rs.Set.Replicas > 0 {
			ps := rs.Set
			ps.Current = we.Revision != "" && rs.Revision == we.Revision
			sets = append(sets, ps)
		}
	}
	slices.SortFunc(sets, func(a, b model.PodSet) int { return strings.Compare(a.Name, b.Name) })
	return sets
}

// statefulSetPodSets splits a StatefulSet's pods by revision from its status.
// Pods of the current revision run the template last seen settled (kept in
// memory, so it is unknown when the board starts mid-rollout); the split of
// ready pods between revisions is an estimate (updated ones count first).
func (c *cluster) statefulSetPodSets(k model.Key, we *wire.WorkloadEntry) []model.PodSet {
	w := we.W
	if we.UpdateRevision == "" || we.CurrentRevision == we.UpdateRevision {
		c.mu.Lock()
		c.stable[k] = w.Containers
		c.mu.Unlock()
		return []model.PodSet{{Name: we.UpdateRevision, Containers: w.Containers, Replicas: we.StatusReplicas,
			Available: w.AvailableReplicas, Current: true}}
	}
	c.mu.RLock()
	old := c.stable[k]
	c.mu.RUnlock()
	newAvail := min(w.UpdatedReplicas, w.AvailableReplicas)
	oldAvail := max(min(we.CurrentReplicas, w.AvailableReplicas-newAvail), 0)
	return []model.PodSet{
		{Name: we.CurrentRevision, Containers: old, Replicas: we.CurrentReplicas, Available: oldAvail},
		{Name: we.UpdateRevision, Containers: w.Containers, Replicas: w.UpdatedReplicas, Available: newAvail, Current: true},
	}
}
