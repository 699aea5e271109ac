package kube

import (
	"context"
	"sort"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/kube/podwatch"
	"github.com/hanzoai/driftboard/kube/provisional"
	"github.com/hanzoai/driftboard/model"
)

// cluster is one watched cluster: its connection state and its scopes.
type cluster struct {
	name    string
	clients ClusterClients
	fleet   *Fleet
	conn    *connState
	settled chan struct{} // closed once synced or failed at least once
	// extrasSet is closed once the namespaces' labels watch and CD are set
	// up (setupExtras), which the informers do not wait for.
	extrasSet chan struct{}
	settle    sync.Once

	mu       sync.RWMutex
	scopes   map[string]*scope // "" = cluster-wide
	synced   bool
	stable   map[model.Key][]model.Container // StatefulSet containers of the last settled revision
	username string                          // Kubernetes identity, from a SelfSubjectReview
	denied   map[string]string               // "ns/resource" → why it may not be listed (discovery)
	nsLabels *nsLabels                       // namespaces' labels, nil when not readable
	cd       *cd.Watcher                     // CD Applications

	prov *provisional.Seen // Apps seen while syncing, shown before the sync ends

	pods *podwatch.Set // pods of workloads that roll out or are unready
	// follow is set in per-namespace mode when namespaces can be listed:
	// namespaces created later get their scope (nsfollow.go).
	follow *nsFollow
}

// scope is the informer set of one namespace, or of the whole cluster.
type scope struct {
	ns          string
	inf         map[string]cache.SharedIndexInformer // by resource: apps, deployments, ...
	handled     map[string]cache.InformerSynced      // by resource: its handler has had the first list
	podsAllowed bool                                 // pods may be listed (watched per workload, see kube/podwatch)
	stop        context.CancelFunc                   // ends its informers (a namespace deleted)
	expect      []func(context.Context)              // count what the first sync will bring (progress.go)
}

// newScope builds the informers of namespace ns ("" = cluster-wide).
func (c *cluster) newScope(ns string, allowed map[string]bool) (*scope, error) {
	s := &scope{ns: ns, inf: map[string]cache.SharedIndexInformer{}, handled: map[string]cache.InformerSynced{},
		podsAllowed: allowed["pods"]}
	for _, spec := range c.specsFor(ns, allowed) {
		if spec.what == "apps" || spec.what == "services" {
			spec.transform = c.prov.Transform(spec.transform) // rows while the lists stream (kube/provisional)
		}
		spec.firstListMarked = true
		inf, handled, err := c.newInformer(spec)
		if err != nil {
			return nil, err
		}
		s.inf[spec.what], s.handled[spec.what] = inf, handled
		if spec.expect != nil {
			s.expect = append(s.expect, spec.expect)
		}
	}
	return s, nil
}

// listed reports, for each informer, whether its first list is in the cache
// and has been through its handler (which then marks rows again, see
// informerSpec.firstListMarked).
func (s *scope) listed() []cache.InformerSynced {
	out := make([]cache.InformerSynced, 0, len(s.handled))
	for _, h := range s.handled {
		out = append(out, h)
	}
	return out
}

// run starts the scope's informers until ctx ends or the scope is stopped.
func (s *scope) run(ctx context.Context) {
	ctx, s.stop = context.WithCancel(ctx)
	for _, inf := range s.inf {
		go inf.RunWithContext(ctx)
	}
}

func newCluster(f *Fleet, cc ClusterClients) *cluster {
	c := &cluster{name: cc.Name, clients: cc, fleet: f, settled: make(chan struct{}), extrasSet: make(chan struct{}),
		scopes: map[string]*scope{}, stable: map[model.Key][]model.Container{}}
	c.prov = provisional.New(cc.Name, provHost{c})
	c.pods = podwatch.New(podHost{c}, f.opts.MaxPodWatches)
	c.conn = newConnState(cc.Name, f.opts.Now, f.signal, cc.Notices)
	c.cd = newCDWatcher(c)
	return c
}

func (c *cluster) markSettled() { c.settle.Do(func() { close(c.settled) }) }

// run sets the cluster up (discovery, access probes), retrying while that
// fails, then runs the informers until ctx ends.
func (c *cluster) run(ctx context.Context) {
	backoff := time.Second
	var plan map[string]map[string]bool
	if c.clients.proxy != nil {
		plan = c.startProxied(ctx)
	}
	for attempt := 1; plan == nil; attempt++ {
		dctx, cancel := context.WithTimeout(ctx, time.Minute) // an unreachable server must not hang setup
		p, notices, err := c.discover(dctx)
		cancel()
		if err == nil {
			plan = p
			c.conn.setUp(notices)
			break
		}
		if ctx.Err() != nil {
			return
		}
		c.conn.retrying(err, attempt, backoff)
		c.markSettled()
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Minute)
	}

	// The namespaces' labels and CD are set up while the informers list:
	// the first rows wait for discovery's round trips only (setup.go).
	extras := make(chan []string, 1)
	go func() { extras <- c.setupExtras(ctx) }()

	var syncs []cache.InformerSynced
	nss := make([]string, 0, len(plan))
	for ns := range plan {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	scopes := map[string]*scope{}
	for _, ns := range nss {
		s, err := c.newScope(ns, plan[ns])
		if err != nil {
			c.conn.failed(err.Error())
			c.markSettled()
			return
		}
		syncs = append(syncs, s.listed()...)
		scopes[ns] = s
	}
	c.mu.Lock()
	c.scopes = scopes
	c.mu.Unlock()
	c.pods.Start(ctx)
	for _, s := range scopes {
		s.run(ctx)
		go c.whenWorkloadsListed(ctx, s)
		for _, expect := range s.expect {
			go expect(ctx)
		}
	}
	bounded, stopBound := context.WithCancel(ctx) // the first sync's bound runs while CD is set up too
	defer stopBound()
	go c.boundFirstSync(bounded)
	if p := c.clients.proxy; p == nil || p.noDirect == nil { // a proxied member is judged only while read direct
		go c.watchLiveness(ctx) // a server frozen during the first lists is not "syncing" for ever
	}
	select {
	case notices := <-extras:
		c.conn.addNotices(notices)
	case <-ctx.Done():
		return
	}
	syncs = append(syncs, c.cd.Start(ctx)...)
	if n := c.nsLabelsWatch(); n != nil {
		syncs = append(syncs, c.nsLabelsListed(n))
	}
	synced := cache.WaitForCacheSync(ctx.Done(), syncs...)
	stopBound()
	if !synced {
		return
	}
	c.mu.Lock()
	c.synced = true
	c.mu.Unlock()
	c.endProvisional()
	c.conn.markSynced()
	c.markSettled()
	c.fleet.signal()
	if c.follow != nil {
		go c.followNamespaces(ctx)
	}
}

func (c *cluster) isSynced() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.synced
}

// scopeFor returns the informers that cover namespace ns, or nil.
func (c *cluster) scopeFor(ns string) *scope {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if s, ok := c.scopes[""]; ok {
		return s
	}
	return c.scopes[ns]
}

// get returns the cached entry ns/name of one informer, or nil.
func (s *scope) get(what, ns, name string) any {
	inf, ok := s.inf[what]
	if !ok {
		return nil
	}
	obj, exists, err := inf.GetIndexer().GetByKey(ns + "/" + name)
	if err != nil || !exists {
		return nil
	}
	return obj
}

func (s *scope) byOwner(what, ns, name string) []any {
	inf, ok := s.inf[what]
	if !ok {
		return nil
	}
	objs, err := inf.GetIndexer().ByIndex(byOwner, ns+"/"+name)
	if err != nil {
		return nil
	}
	return objs
}

// appKeys lists every row key of the cluster: App/Service CRs in the
// caches, and chart-plane Applications.
func (c *cluster) appKeys() []model.Key { return append(c.cd.ChartKeys(), c.crKeys()...) }

// crKeys lists the rows of the App/Service CRs in the caches.
func (c *cluster) crKeys() []model.Key {
	var keys []model.Key
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, s := range c.scopes {
		for _, what := range []string{"apps", "services"} {
			if inf, ok := s.inf[what]; ok {
				for _, k := range inf.GetIndexer().ListKeys() {
					ns, name, err := cache.SplitMetaNamespaceKey(k)
					if err == nil {
						keys = append(keys, model.Key{Cluster: c.name, Namespace: ns, Name: name})
					}
				}
			}
		}
	}
	return keys
}
