// Package karmadatest runs a real Karmada control plane on loopback for
// tests: etcd and the kube-apiserver of testcluster as Karmada's API server,
// karmada-aggregated-apiserver (the Cluster API) and karmada-search (the
// search proxy), each reached through an APIService and an ExternalName
// Service to 127.0.0.1. Members are testcluster control planes joined in
// push mode and marked Ready by the test (no controller-manager runs). The
// binaries come from 'make testenv'; a test that cannot find them fails.
package karmadatest

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// ProxyPath is the search proxy's prefix: a Kubernetes API over every
// member's cached objects.
const ProxyPath = "/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy"

// CachedFromAnnotation names the member an object read through the proxy
// came from.
const CachedFromAnnotation = "resource.karmada.io/cached-from-cluster"

var (
	clustersGVR   = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}
	registriesGVR = schema.GroupVersionResource{Group: "search.karmada.io", Version: "v1alpha1", Resource: "resourceregistries"}
	apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

// Karmada is a running Karmada control plane.
type Karmada struct {
	t      testing.TB
	host   *testcluster.Cluster // Karmada's own API server and etcd
	binDir string
	dyn    dynamic.Interface
	procs  []*testcluster.Process
	// Started is how long the control plane took to answer on both
	// aggregated APIs.
	Started time.Duration
}

// Start runs Karmada's API server with both aggregated servers and waits
// until Clusters and the search proxy are served. The App and Hanzo CD
// Application CRDs are installed on it: the proxy ignores kinds its API
// server does not know.
func Start(t testing.TB) *Karmada {
	t.Helper()
	begin := time.Now()
	binDir, err := findBinDir()
	if err != nil {
		t.Fatalf("karmada binaries not found in %s: run make testenv (%v)", binDir, err)
	}
	host := testcluster.Start(t, testcluster.Options{Aggregation: true})
	k := &Karmada{t: t, host: host, binDir: binDir, dyn: host.AdminDynamic()}
	t.Cleanup(k.shutdown)
	host.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	host.CreateNamespaces("karmada-system", "karmada-cluster")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, s := range []struct{ name, binary, group string }{
		{"karmada-aggregated-apiserver", "karmada-aggregated-apiserver", "cluster.karmada.io"},
		{"karmada-search", "karmada-search", "search.karmada.io"},
	} {
		ports, err := testcluster.FreePorts(1)
		if err != nil {
			t.Fatal(err)
		}
		p := k.server(s.name, s.binary, ports[0])
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		k.procs = append(k.procs, p)
		if err := k.register(ctx, s.name, s.group, ports[0]); err != nil {
			k.fatalf("register %s: %v", s.name, err)
		}
	}
	if err := k.waitServed(ctx, "/apis/cluster.karmada.io/v1alpha1/clusters"); err != nil {
		k.fatalf("Cluster API not served: %v", err)
	}
	if err := k.waitServed(ctx, "/apis/search.karmada.io/v1alpha1/resourceregistries"); err != nil {
		k.fatalf("search API not served: %v", err)
	}
	k.Started = time.Since(begin)
	t.Logf("karmadatest: Karmada served in %s", k.Started.Round(time.Millisecond))
	return k
}

// Host is Karmada's API server (its etcd, admin, CRDs).
func (k *Karmada) Host() *testcluster.Cluster { return k.host }

// ProxyConfig is an admin config whose API is the search proxy's.
func (k *Karmada) ProxyConfig() *rest.Config {
	cfg := k.host.AdminConfig()
	cfg.Host += ProxyPath
	return cfg
}

// PIDs are the aggregated servers' process ids (for memory figures).
func (k *Karmada) PIDs() map[string]int {
	out := map[string]int{}
	for _, p := range k.procs {
		if pid := p.PID(); pid != 0 {
			out[p.Name()] = pid
		}
	}
	return out
}

// server is one aggregated server: Karmada's own objects in the shared etcd,
// a self-signed serving certificate, the host's admin for delegated
// authentication and authorization.
func (k *Karmada) server(name, binary string, port int) *testcluster.Process {
	kubeconfig := k.host.KubeconfigPath()
	dir := filepath.Join(k.host.Dir(), name)
	return testcluster.NewProcess(name, filepath.Join(k.binDir, binary), dir+".log",
		"--kubeconfig="+kubeconfig,
		"--authentication-kubeconfig="+kubeconfig,
		"--authorization-kubeconfig="+kubeconfig,
		"--etcd-servers="+k.host.EtcdURL(),
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(port),
		"--cert-dir="+dir+"-certs",
		"--audit-log-maxbackup=0",
		"--v=2",
	)
}

// waitServed polls path through the host's aggregator until it answers 200,
// failing early when a server has exited.
func (k *Karmada) waitServed(ctx context.Context, path string) error {
	var last string
	for {
		for _, p := range k.procs {
			if ended, err := p.Exited(); ended {
				return fmt.Errorf("%s exited: %v", p.Name(), err)
			}
		}
		status, body, err := k.get(ctx, path)
		if err == nil && status == http.StatusOK {
			return nil
		}
		last = fmt.Sprintf("HTTP %d: %.200s %v", status, body, err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last answer: %s)", ctx.Err(), last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (k *Karmada) fatalf(format string, args ...any) {
	k.t.Helper()
	k.t.Fatalf("karmadatest: "+format, args...)
}

func (k *Karmada) shutdown() {
	if k.t.Failed() {
		for _, p := range k.procs {
			k.t.Logf("--- %s log (%s), last lines:\n%s", p.Name(), p.LogPath(), p.Tail(40))
		}
	}
	for i := len(k.procs) - 1; i >= 0; i-- {
		k.procs[i].Stop(0)
	}
}

// StopSearch kills karmada-search: the proxy answers no more (the
// aggregator says 503) until StartSearch.
func (k *Karmada) StopSearch() { k.proc("karmada-search").Stop(0) }

// StartSearch starts karmada-search again, on its port, and waits until the
// proxy serves Apps.
func (k *Karmada) StartSearch() {
	k.t.Helper()
	if err := k.proc("karmada-search").Start(); err != nil {
		k.fatalf("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := k.waitServed(ctx, ProxyPath+"/apis/hanzo.ai/v1/apps?resourceVersion=0"); err != nil {
		k.fatalf("karmada-search restarted: %v", err)
	}
}

func (k *Karmada) proc(name string) *testcluster.Process {
	for _, p := range k.procs {
		if p.Name() == name {
			return p
		}
	}
	k.fatalf("no process %s", name)
	return nil
}
