package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/kube/karmada"
	"github.com/hanzoai/driftboard/kube/wire"
)

// ProxyPath is Karmada's search proxy under its API server: a Kubernetes API
// over the members' objects its ResourceRegistry caches.
const ProxyPath = "/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy"

// cdApplicationsGVR is the CD kind read through the proxy: Hanzo CD's.
var cdApplicationsGVR = cd.DefaultKinds[0].GVR

// KarmadaSource is a Karmada API server whose search proxy the board reads
// members' Apps, workloads and ReplicaSets through, as the context's own
// identity.
type KarmadaSource struct {
	Name    string       // its kubeconfig context, named in the members' notices
	Config  *rest.Config // Karmada's API server (the proxy path is added)
	Members []KarmadaMember
	// DirectAfter is how long the proxy fails before members with a
	// context of their own are read direct, until it answers again
	// (0: DefaultDirectAfter; negative: never, their rows wait stale).
	DirectAfter time.Duration
}

// KarmadaMember is one member read through the proxy.
type KarmadaMember struct {
	Cluster string // its Cluster's name in Karmada, as the proxy annotates objects
	// Direct are the clients of its kubeconfig context, for actions
	// (restarts, logs, Events), with that context's identity and trust;
	// its name is the rows' cluster. Nil: the rows' cluster is Cluster and
	// every action is refused.
	Direct *ClusterClients
}

// proxied is a member cluster's share of a Karmada source.
type proxied struct {
	feeds *karmadaFeeds
	name  string // the member's Cluster in Karmada
	// noDirect says why every action is refused: the member has no
	// kubeconfig context of its own (nil when it has one).
	noDirect error
}

// karmadaFeeds are a source's feeds, one per kind, started with the first
// member's cluster; each proxy call is reported to every member.
type karmadaFeeds struct {
	source string
	byKind map[string]*karmada.Feed // by informer name: "apps", …, "applications.apps.hanzo.ai"
	// host is Karmada's API server: its discovery says which CD kinds the
	// proxy can serve (the proxy serves only kinds its API server knows).
	host  ClusterClients
	start sync.Once

	mu       sync.Mutex
	conns    []*connState
	byMember map[string]*connState // by Karmada's name of the member
	status   map[string]error      // the members' Clusters: why not Ready, nil when Ready

	// While the proxy fails (proxieddirect.go): the kinds whose last call
	// failed, and whether the members with a context are read direct.
	directAfter time.Duration
	withContext map[string]bool // members with a context of their own
	failing     map[string]error
	timer       *time.Timer
	direct      bool
	switched    chan struct{}              // closed (and replaced) when direct changes
	kinds       map[string]map[string]bool // member → the kinds its informers read
	answered    map[string]map[string]bool // member → the kinds listed direct since the switch
}

// ConnectKarmada makes the clients of each member of src: their rows read
// through the proxy, their actions through Direct (or refused).
func ConnectKarmada(src KarmadaSource, opts ConnectOptions) ([]ClusterClients, error) {
	cfg := rest.CopyConfig(src.Config)
	cfg.Host += ProxyPath
	if cfg.UserAgent == "" {
		cfg.UserAgent = "driftboard"
	}
	cfg.QPS, cfg.Burst = max(opts.QPS, 100), max(opts.Burst, 200)
	workloads, err := appsv1client.NewForConfig(cfg) // JSON: the proxy's cache holds unstructured objects
	if err != nil {
		return nil, fmt.Errorf("karmada %s: client: %w", src.Name, err)
	}
	core, err := corev1client.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("karmada %s: client: %w", src.Name, err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("karmada %s: dynamic client: %w", src.Name, err)
	}
	rowCluster := map[string]string{} // Karmada's member name → the rows' cluster
	names := make([]string, 0, len(src.Members))
	for _, m := range src.Members {
		rowCluster[m.Cluster] = m.Cluster
		if m.Direct != nil {
			rowCluster[m.Cluster] = m.Direct.Name
		}
		names = append(names, m.Cluster)
	}
	fs := &karmadaFeeds{source: src.Name, byKind: map[string]*karmada.Feed{}, byMember: map[string]*connState{}, status: map[string]error{},
		directAfter: src.DirectAfter, withContext: map[string]bool{}, failing: map[string]error{},
		switched: make(chan struct{}), kinds: map[string]map[string]bool{}, answered: map[string]map[string]bool{}}
	if fs.directAfter == 0 {
		fs.directAfter = DefaultDirectAfter
	}
	for _, m := range src.Members {
		fs.withContext[m.Cluster] = m.Direct != nil
	}
	host, err := NewClusterClients(src.Name, src.Config, opts)
	if err != nil {
		return nil, err
	}
	fs.host = host
	for _, k := range proxyKinds(workloads, core, dyn, rowCluster) {
		what := k.Name
		fs.byKind[what] = karmada.NewFeed(k, names, func(err error) { fs.report(what, err) })
		fs.byKind[what].OnStray(fs.tellStrays)
	}
	out := make([]ClusterClients, 0, len(src.Members))
	for _, m := range src.Members {
		var cc ClusterClients
		var noDirect error
		if m.Direct != nil {
			cc = *m.Direct
			// Its notices say who its actions act as; its rows are read as
			// the Karmada context's identity.
			cc.Notices = make([]string, 0, len(m.Direct.Notices))
			for _, n := range m.Direct.Notices {
				cc.Notices = append(cc.Notices, "actions and pods, direct: "+n)
			}
		} else {
			noDirect = fmt.Errorf("cluster %s is read through Karmada (%s) and has no kubeconfig context of its own: restarts, logs and Events need one", m.Cluster, src.Name)
			if cc, err = refusingClients(m.Cluster, noDirect); err != nil {
				return nil, err
			}
		}
		cc.Notices = append(cc.Notices, fmt.Sprintf("read through Karmada (%s)", src.Name))
		cc.proxy = &proxied{feeds: fs, name: m.Cluster, noDirect: noDirect}
		out = append(out, cc)
	}
	return out, nil
}

// proxyKinds are the kinds read through the proxy, each decoded and trimmed
// once, in the feed, as the member's informer would.
func proxyKinds(workloads appsv1client.AppsV1Interface, core corev1client.CoreV1Interface, dyn dynamic.Interface, rowCluster map[string]string) []karmada.Kind {
	apps, cdApps, nss := dyn.Resource(appsGVR), dyn.Resource(cdApplicationsGVR), core.Namespaces()
	same := func(_ string, obj runtime.Object) (runtime.Object, error) { return obj, nil } // the member's informer transforms it
	d, s, rs := workloads.Deployments(""), workloads.StatefulSets(""), workloads.ReplicaSets("")
	trimmed := func(t func(any) (any, error)) func(string, runtime.Object) (runtime.Object, error) {
		return func(_ string, obj runtime.Object) (runtime.Object, error) {
			out, err := t(obj)
			if err != nil {
				return nil, err
			}
			return out.(runtime.Object), nil
		}
	}
	return []karmada.Kind{
		{Name: "apps", Example: &unstructuredExample, Cached: &appEntryExample,
			List:  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return apps.List(ctx, o) },
			Watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return apps.Watch(ctx, o) },
			Convert: func(member string, obj runtime.Object) (runtime.Object, error) {
				u, ok := obj.(*unstructured.Unstructured)
				if !ok {
					return nil, fmt.Errorf("app through the proxy: unexpected %T", obj)
				}
				return wire.AppEntryOf(rowCluster[member], u), nil
			}},
		{Name: "deployments", Example: &appsv1.Deployment{}, Cached: &wire.WorkloadEntry{},
			List:    func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return d.List(ctx, o) },
			Watch:   func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return d.Watch(ctx, o) },
			Convert: trimmed(wire.TransformDeployment)},
		{Name: "statefulsets", Example: &appsv1.StatefulSet{}, Cached: &wire.WorkloadEntry{},
			List:    func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return s.List(ctx, o) },
			Watch:   func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return s.Watch(ctx, o) },
			Convert: trimmed(wire.TransformStatefulSet)},
		{Name: cdApplicationsGVR.GroupResource().String(), Example: &unstructuredExample, Cached: &unstructuredExample,
			List:    func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return cdApps.List(ctx, o) },
			Watch:   func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return cdApps.Watch(ctx, o) },
			Convert: same},
		// The namespaces' labels (a tenant's org); where the registry does
		// not cache them, the proxy answers with Karmada's own, none a
		// member's: the rows then take the org from the App or its image.
		{Name: "namespaces", Example: &corev1.Namespace{}, Cached: &corev1.Namespace{},
			List:    func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return nss.List(ctx, o) },
			Watch:   func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return nss.Watch(ctx, o) },
			Convert: same},
		{Name: "replicasets", Example: &appsv1.ReplicaSet{}, Cached: &wire.PodSetEntry{},
			List:    func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return rs.List(ctx, o) },
			Watch:   func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return rs.Watch(ctx, o) },
			Convert: trimmed(wire.TransformReplicaSet)},
	}
}

// run starts the feeds and the Clusters' watch once, and has the member's
// conn hear of every proxy call and of its Cluster's status.
func (fs *karmadaFeeds) run(ctx context.Context, member string, conn *connState) {
	fs.mu.Lock()
	fs.conns = append(fs.conns, conn)
	fs.byMember[member] = conn
	notReady := fs.status[member]
	fs.mu.Unlock()
	if notReady != nil {
		tellStatus(conn, fs.statusID(), notReady)
	}
	fs.start.Do(func() {
		for _, f := range fs.byKind {
			go f.Run(ctx)
		}
		go fs.watchClusters(ctx)
	})
}

// strayTopic is the running notice of the objects of members not
// configured: said once, on the first member's line, not on every one.
const strayTopic = "karmada strays"

func (fs *karmadaFeeds) tellStrays() {
	n := 0
	for _, f := range fs.byKind {
		n += f.Stray()
	}
	fs.mu.Lock()
	var first *connState
	if len(fs.conns) > 0 {
		first = fs.conns[0]
	}
	fs.mu.Unlock()
	if first == nil {
		return
	}
	text := ""
	if n > 0 {
		text = fmt.Sprintf("Karmada (%s) serves %d objects of clusters not configured as its members: not shown", fs.source, n)
	}
	first.setNote(strayTopic, text)
}

func (fs *karmadaFeeds) report(what string, err error) {
	fs.mu.Lock()
	fs.degraded(what, err)
	fs.mu.Unlock()
	fs.tell()
}

// refusingClients are a member's clients when it has no direct context:
// every request fails with the reason, so an action is refused and nothing
// is sent anywhere.
func refusingClients(member string, why error) (ClusterClients, error) {
	cfg := &rest.Config{Host: "https://" + member + ".invalid", Transport: refusing{why}}
	kube, err := newTypedClients(cfg, &http.Client{Transport: refusing{why}})
	if err != nil {
		return ClusterClients{}, err
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, &http.Client{Transport: refusing{why}})
	if err != nil {
		return ClusterClients{}, err
	}
	return ClusterClients{Name: member, Kube: kube, Dynamic: dyn}, nil
}

type refusing struct{ why error }

func (r refusing) RoundTrip(*http.Request) (*http.Response, error) { return nil, r.why }
