// Package cd watches the CD Applications (Hanzo CD, an Argo CD fork, or
// plain Argo CD) of one cluster, which say whether each App CR matches git.
// Discovery tells which Application kinds the cluster serves, always by full
// resource name: Hanzo CD's short names app/apps collide with the App's.
// Each served kind is watched by one informer (cluster-wide, else in the
// kind's home namespace); any change re-evaluates the cluster's rows. CD
// installed, uninstalled or replaced while the board runs is followed.
// Nothing is polled.
//
// The package reaches its cluster only through Config: the clients, and the
// few things the cluster does for it (Host).
package cd

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// Config is the cluster a Watcher watches.
type Config struct {
	Name      string // the cluster's, in row keys and Applications' names
	Discovery discovery.DiscoveryInterface
	Dynamic   dynamic.Interface
	Kinds     []Kind // nil: DefaultKinds
	AppGroup  string // the API group of the App and Service CRs the Applications list
	Host      Host
}

// Host is what the cluster does for its CD watch.
type Host interface {
	// NewInformer builds an informer of what over list and watch whose
	// calls report to the cluster's connection state under id, and which
	// transforms what it caches; the watch adds its own handlers.
	NewInformer(id, what string, list ListFunc, watch WatchFunc, transform cache.TransformFunc) (cache.SharedIndexInformer, error)
	// SetNotes replaces the cluster's notices under topic; SetNote sets one
	// ("" clears it).
	SetNotes(topic string, texts []string)
	SetNote(topic, text string)
	// Forget drops what the connection state knows of an informer's calls.
	Forget(id string)
	// Signal says the next snapshot is due; it calls Refresh.
	Signal()
	// MarkRows rebuilds the rows at the next snapshot; MarkEveryRow every
	// row of the cluster, chart rows and rows seen while syncing included.
	MarkRows(keys []model.Key)
	MarkEveryRow()
	// AppKeys are the rows of the App and Service CRs cached.
	AppKeys() []model.Key
	// ErrText is an error as a sentence for the board.
	ErrText(err error) string
}

// ListFunc and WatchFunc are an informer's calls.
type (
	ListFunc  func(context.Context, metav1.ListOptions) (runtime.Object, error)
	WatchFunc func(context.Context, metav1.ListOptions) (watch.Interface, error)
)

// Watcher is a cluster's CD state: the current watch, replaced as CD is
// installed or uninstalled.
type Watcher struct {
	cfg Config

	mu  sync.RWMutex
	cur *appWatch // nil until set up
}

// New returns the CD watcher of a cluster; Setup then Start run it.
func New(cfg Config) *Watcher {
	if cfg.Kinds == nil {
		cfg.Kinds = DefaultKinds
	}
	return &Watcher{cfg: cfg}
}

// The cluster's notices about CD are those of its current watch, under one
// topic: set up at start, replaced with the watch (a notice that CD is not
// readable, or not followed, must not outlive the watch it was about).
// installTopic is the follower's own trouble (a CRD watch it could not set).
const (
	notesTopic   = "cd"
	installTopic = "cd-install"
)

// Setup discovers the served Application kinds and probes who may list
// them; the watch is not run until Start. Its notices are the cluster's
// under the CD topic (a watch set up later replaces them).
func (cw *Watcher) Setup(ctx context.Context) {
	w, notices := cw.setup(ctx, nil)
	cw.mu.Lock()
	cw.cur = w
	cw.mu.Unlock()
	cw.cfg.Host.SetNotes(notesTopic, notices)
}

// Start runs the watch set up, and the follower of the kinds it does not
// serve, until ctx ends or it is replaced; it returns what tells its
// informers have synced.
func (cw *Watcher) Start(ctx context.Context) []cache.InformerSynced {
	return cw.start(ctx, cw.current())
}

func (cw *Watcher) current() *appWatch {
	cw.mu.RLock()
	defer cw.mu.RUnlock()
	return cw.cur
}

// changed notes that the view must be rebuilt; the next snapshot does it
// (Refresh) and re-evaluates the rows.
func (cw *Watcher) changed() {
	if w := cw.current(); w != nil {
		w.mu.Lock()
		w.dirty = true
		w.mu.Unlock()
	}
	cw.cfg.Host.Signal()
}
