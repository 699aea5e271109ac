package kube

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/hanzoai/driftboard/kube/wire"
)

// startProxied starts the source's feeds and plans the member's one
// cluster-wide scope: no discovery or access probes reach the member. A
// member with a direct context watches the pods of its failing rollouts
// there, bounded as a direct cluster's, as that context's identity (the
// proxy does not cache pods); one without says why its pods are unknown.
func (c *cluster) startProxied(ctx context.Context) map[string]map[string]bool {
	p := c.clients.proxy
	p.feeds.run(ctx, p.name, c.conn)
	var notices []string
	if p.noDirect != nil {
		notices = []string{"pods: not read (failing pods unknown): no kubeconfig context of its own to read them from"}
	}
	c.conn.setUp(notices)
	return map[string]map[string]bool{"": {"apps": true, "deployments": true, "statefulsets": true, "replicasets": true,
		"pods": p.noDirect == nil}}
}

// proxiedSpecs are the member's informers over its share of the feeds:
// the same keys, indexes and handlers as a direct cluster's, on entries the
// feeds decoded and trimmed already (the transforms pass them through).
func (c *cluster) proxiedSpecs() []informerSpec {
	p := c.clients.proxy
	specs := make([]informerSpec, 0, len(p.feeds.byKind))
	for _, what := range []string{"apps", "deployments", "statefulsets", "replicasets"} {
		lw, err := c.proxiedLW(what)
		if err != nil {
			continue
		}
		spec := informerSpec{what: what, lw: lw, key: ownKey}
		switch what {
		case "apps":
			listed := c.conn.progress.newList()
			list := spec.lw.list
			spec.lw.list = func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				l, err := list(ctx, o)
				if err == nil {
					c.countList(listed, o, l)
				}
				return l, err
			}
			spec.example, spec.transform = &appEntryExample, wire.TransformApp(c.name)
		case "deployments":
			spec.example, spec.transform = &wire.WorkloadEntry{}, wire.TransformDeployment
		case "statefulsets":
			spec.example, spec.transform = &wire.WorkloadEntry{}, wire.TransformStatefulSet
		case "replicasets":
			spec.example, spec.transform = &wire.PodSetEntry{}, wire.TransformReplicaSet
			spec.key, spec.indexers = replicaSetKey, ownerIndex(replicaSetKey)
		}
		specs = append(specs, spec)
	}
	return specs
}

// proxiedLW is the member's share of the feed of what (an informer's name),
// or, while the proxy is degraded and the member has a context of its own,
// the member itself (proxieddirect.go).
func (c *cluster) proxiedLW(what string) (*observedLW, error) {
	p := c.clients.proxy
	f, ok := p.feeds.byKind[what]
	if !ok {
		return nil, fmt.Errorf("%s are not read through Karmada (%s)", what, p.feeds.source)
	}
	proxy := lwFuncs{
		list: func(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
			return f.MemberList(ctx, p.name)
		},
		watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return f.MemberWatch(ctx, p.name, o)
		}}
	lw := &observedLW{id: "/" + what, conn: c.conn, unsupported: true, list: proxy.list, watch: proxy.watch}
	if direct, ok := c.directLW(what); ok && p.noDirect == nil && p.feeds.directAfter >= 0 {
		p.feeds.expect(p.name, what)
		r := &readSwitch{fs: p.feeds, member: p.name, what: what, proxy: proxy, direct: direct}
		lw.list, lw.watch = r.list, r.watch
	}
	return lw, nil
}

// proxiedExtras sets up a proxied member's namespaces' labels and CD (the
// kinds Karmada's API server serves), both read through the proxy.
func (c *cluster) proxiedExtras(ctx context.Context) []string {
	c.watchNamespaceLabels(ctx)
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	c.cd.Setup(dctx)
	return nil
}
