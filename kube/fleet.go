// Package kube turns live Kubernetes APIs into the board's rows and performs
// its one action, the rolling restart. Informers watch App CRs and workloads;
// their handlers only mark rows dirty, and Snapshot rebuilds those rows off
// the UI loop.
//
// What pods really run: a Deployment's ReplicaSets (the one carrying the
// Deployment's revision is current; the model takes the tag of the set with
// most available pods). A StatefulSet's status revisions and counts (the old
// revision's template is remembered from when the set was last settled, so
// it is unknown only when the board starts mid-rollout). Pods only of the
// workloads that roll out or are unready, one watch per workload by its
// selector (kube/podwatch), for why they fail (CrashLoopBackOff, image pulls,
// OOMKilled, Unschedulable) before the progress deadline says so; a healthy
// fleet's pods are never listed or cached.
//
// Its subpackages each do one job the fleet composes: kube/wire decodes the
// API's bytes, kube/cd watches CD's Applications, kube/events and
// kube/podlogs read an App's Events and its pods' logs, kube/execcred runs
// the kubeconfig's credential plugins.
package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// ClusterClients are the clients of one cluster (one kubeconfig context).
type ClusterClients struct {
	Name    string
	Kube    TypedClients
	Dynamic dynamic.Interface
	// Notices are shown with the cluster's state for as long as it is
	// watched, before those the fleet finds itself (e.g. which identity the
	// clients act as, when it is not the one the user expects).
	Notices []string
	// Identity is who the clients act as; a restart is refused unless it
	// is the IAM identity (when the fleet has a Principal).
	Identity model.ClusterIdentity
	// Server is the API server's URL: a restart is bound to it.
	Server string
	// apps lists and watches Apps and Services on a real API server; nil
	// for fake clients, which are read through Dynamic instead.
	apps *appsClient
	// workloads lists and watches Deployments, StatefulSets and ReplicaSets
	// on a real API server (workloadCodecs); nil for fake clients, which are
	// read through Kube.
	workloads        appsv1client.AppsV1Interface
	workloadsInPlace *atomic.Int64 // objects its codecs read in place
	// proxy, when set, is the Karmada source its rows are read through
	// (proxied.go); the clients above then serve its actions only.
	proxy *proxied
}

// workloadClient is the apps/v1 client the informers list and watch with.
func (cc ClusterClients) workloadClient() appsv1client.AppsV1Interface {
	if cc.workloads != nil {
		return cc.workloads
	}
	return cc.Kube.AppsV1()
}

// ReleaseSource tells what GitHub knows about a repo's releases.
type ReleaseSource interface {
	Lookup(repo, tag string) model.Release
	Changed() <-chan struct{}
}

// ReleaseChecker is optional for a ReleaseSource: its own state (off,
// anonymous, rate-limited), which the header shows.
type ReleaseChecker interface {
	Checks() model.ReleaseChecks
}

// FleetOptions configure a Fleet.
type FleetOptions struct {
	Namespaces    []string // empty: all the identity may read
	LabelSelector string   // applied to Apps and Services
	Releases      ReleaseSource
	// Principal is the IAM identity acting on the board. When the function
	// is nil, no IAM scope applies and Kubernetes RBAC alone decides; when
	// it returns nil, nobody is logged in and restarts are refused. When it
	// is set, a restart is made only on clusters whose clients carry the
	// IAM identity (ClusterClients.Identity), never as the kubeconfig user.
	Principal func() *model.Principal
	// Act, when set, starts each restart check and restart: it returns a
	// context whose requests carry one verified IAM token and the principal
	// that token names (it supersedes Principal for those actions).
	Act      func(ctx context.Context) (context.Context, *model.Principal, error)
	Now      func() time.Time
	ReadOnly bool // refuse every restart and CD sync
	// ReadOnlyContexts are the contexts the config makes read-only:
	// restarts and CD syncs there are refused (restart.Policy's rule).
	ReadOnlyContexts map[string]bool
	// MaxPodWatches bounds each cluster's pod watches (workloads rolling
	// out or unready); 0 means DefaultMaxPodWatches.
	MaxPodWatches int
	Failed        []model.ClusterState // contexts Connect could not open, shown as failed
	// CDKinds are the CD Application resources looked for, in order; nil
	// means cd.DefaultKinds (Hanzo CD's, then Argo CD's).
	CDKinds []cd.Kind
	// SyncFailAfter: a call of a cluster's first sync failing this long
	// fails the cluster (syncfail.go); 0 means DefaultSyncFailAfter.
	SyncFailAfter time.Duration
}

// Fleet watches every cluster and serves snapshots of the board.
type Fleet struct {
	opts     FleetOptions
	clusters []*cluster
	byName   map[string]*cluster
	store    *store.Store
	changed  chan struct{}
	settled  chan struct{} // closed once every cluster has settled (Settled)
	messages messageTable  // the rows' drift messages, one copy each

	mu    sync.Mutex
	dirty map[model.Key]struct{}
	// spareDirty is the next dirty map, cleared (buildMu).
	spareDirty map[model.Key]struct{}
	allDirty   bool
	subs       map[chan struct{}]struct{}
	expectGen  map[model.Key]int64 // generation a restart produced, for WaitRollout

	buildMu    sync.Mutex   // one builder at a time
	rowsBuilt  atomic.Int64 // rows built since start: each costs a model.Build
	offlineSet map[string]bool
	lastStates []model.ClusterState
}

// NewFleet prepares informers for the clusters; nothing runs before Start.
func NewFleet(opts FleetOptions, clusters ...ClusterClients) *Fleet {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxPodWatches <= 0 {
		opts.MaxPodWatches = DefaultMaxPodWatches
	}
	f := &Fleet{
		opts: opts, byName: map[string]*cluster{}, store: store.New(),
		changed: make(chan struct{}, 1), settled: make(chan struct{}), dirty: map[model.Key]struct{}{}, spareDirty: map[model.Key]struct{}{},
		subs: map[chan struct{}]struct{}{}, expectGen: map[model.Key]int64{}, offlineSet: map[string]bool{},
	}
	for _, cc := range clusters {
		c := newCluster(f, cc)
		f.clusters = append(f.clusters, c)
		f.byName[cc.Name] = c
	}
	return f
}

// Start runs every cluster's informers until ctx ends.
func (f *Fleet) Start(ctx context.Context) {
	for _, c := range f.clusters {
		go c.run(ctx)
	}
	go f.closeWhenSettled(ctx)
	if f.opts.Releases != nil {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-f.opts.Releases.Changed():
					f.mu.Lock()
					f.allDirty = true
					f.mu.Unlock()
					f.signal()
				}
			}
		}()
	}
	f.signal() // the first snapshot shows the clusters syncing
}

// WaitSynced blocks until every cluster has synced its caches or failed to
// set up. It reports the failed clusters.
func (f *Fleet) WaitSynced(ctx context.Context) error {
	for _, c := range f.clusters {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for cluster %s to sync: %w", c.name, ctx.Err())
		case <-c.settled:
		}
	}
	var errs []error
	for _, c := range f.clusters {
		switch st := c.conn.state(); st.Phase {
		case model.ConnFailed:
			errs = append(errs, fmt.Errorf("cluster %s: %s", c.name, st.Reason))
		case model.ConnUnresponsive: // frozen before or since its sync: its data is not complete
			errs = append(errs, fmt.Errorf("cluster %s: unresponsive: %s", c.name, st.Reason))
		}
	}
	for _, st := range f.opts.Failed {
		errs = append(errs, fmt.Errorf("cluster %s: %s", st.Name, st.Reason))
	}
	return errors.Join(errs...)
}

// Settled is closed once every cluster's first sync has ended (synced, or
// failed at least once): the board's UI then takes the snapshot that shows
// the whole fleet without waiting for its syncing pace.
func (f *Fleet) Settled() <-chan struct{} { return f.settled }

func (f *Fleet) closeWhenSettled(ctx context.Context) {
	for _, c := range f.clusters {
		select {
		case <-ctx.Done():
			return
		case <-c.settled:
		}
	}
	close(f.settled)
}

// Changed signals (coalesced, capacity 1) that a new snapshot is worth taking.
func (f *Fleet) Changed() <-chan struct{} { return f.changed }

func (f *Fleet) signal() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
	f.mu.Lock()
	for ch := range f.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	f.mu.Unlock()
}

// subscribe returns a private change channel (for WaitRollout), so waiting
// for a rollout does not steal the UI's signals.
func (f *Fleet) subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.subs[ch] = struct{}{}
	f.mu.Unlock()
	return ch, func() {
		f.mu.Lock()
		delete(f.subs, ch)
		f.mu.Unlock()
	}
}

func (f *Fleet) markDirty(k model.Key) {
	f.mu.Lock()
	f.dirty[k] = struct{}{}
	f.mu.Unlock()
	f.signal()
}

// states lists every cluster's connection state, failed contexts included.
func (f *Fleet) states() []model.ClusterState {
	out := make([]model.ClusterState, 0, len(f.clusters)+len(f.opts.Failed))
	for _, c := range f.clusters {
		out = append(out, c.conn.state())
	}
	return append(out, f.opts.Failed...)
}

func sameStates(a, b []model.ClusterState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Name != y.Name || x.Phase != y.Phase || !x.Since.Equal(y.Since) || x.Reason != y.Reason ||
			x.Listed != y.Listed || x.Expected != y.Expected || !slices.Equal(x.Notices, y.Notices) ||
			x.Attempt != y.Attempt || !x.RetryAt.Equal(y.RetryAt) || x.Unreachable != y.Unreachable {
			return false
		}
	}
	return true
}

// ClusterStates is each cluster's connection state now, without building a
// snapshot: for a command that waits on the sync and says why it waits.
func (f *Fleet) ClusterStates() []model.ClusterState { return f.states() }
