// Package testcluster runs a real Kubernetes control plane on loopback for
// tests: etcd and kube-apiserver, and on request kube-controller-manager,
// kube-scheduler and kwok (a simulated node that makes pods Running). The
// binaries come from 'make testenv'; a test that cannot find them fails.
package testcluster

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Options choose what runs besides etcd and the API server.
type Options struct {
	// Controllers adds kube-controller-manager (deployments, replicasets,
	// statefulsets, service accounts, namespaces, garbage collection),
	// kube-scheduler, kwok and one fake node, so workloads roll out.
	Controllers bool
	// OIDC starts the API server with --authentication-config pointing at a
	// file that SetAuthenticationConfig rewrites while it runs.
	OIDC bool
	// AuthenticationConfig is that file's initial content (implies OIDC);
	// empty means an AuthenticationConfiguration with no JWT issuers.
	AuthenticationConfig []byte
	// Aggregation lets the API server proxy aggregated APIs (APIServices) to
	// extension servers: a front-proxy client certificate and the request
	// header flags those servers trust.
	Aggregation bool
	// Profiling serves the API server's /debug/pprof (CollectAPIServerGarbage
	// needs it; benchmarks use it to start each measure from the same heap).
	Profiling bool
}

// Cluster is a running control plane. Its methods are safe to call from the
// test goroutine; SeedApp, Kubectl and AuditEvents from any goroutine.
type Cluster struct {
	t      testing.TB
	dir    string
	binDir string
	ca     *authority
	opts   Options

	etcdURL   string
	apiPort   int
	host      string
	admin     *rest.Config
	adminKube kubernetes.Interface
	adminDyn  dynamic.Interface
	probe     *http.Client

	mu        sync.Mutex // guards the process fields across stop/start
	etcd      *process
	apiserver *process
	others    []*process
}

// Start runs a fresh control plane in a temporary folder with free ports and
// stops it when the test ends. Startup failures end the test with the logs.
func Start(t testing.TB, opts Options) *Cluster {
	t.Helper()
	begin := time.Now()
	binDir, err := findBinDir()
	if err != nil {
		t.Fatalf("control-plane binaries not found in %s: run make testenv (%v)", binDir, err)
	}
	if len(opts.AuthenticationConfig) > 0 {
		opts.OIDC = true
	}
	c := &Cluster{t: t, dir: t.TempDir(), binDir: binDir, opts: opts}
	t.Cleanup(c.shutdown) // registered after TempDir, so it runs before the folder goes

	ports, err := freePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	c.etcdURL = fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	c.apiPort = ports[2]
	c.host = fmt.Sprintf("https://127.0.0.1:%d", c.apiPort)
	if err := c.writeFiles(); err != nil {
		t.Fatalf("testcluster: prepare %s: %v", c.dir, err)
	}
	c.etcd = c.newEtcd(ports[0], ports[1])
	c.apiserver = c.newAPIServer()
	if err := c.etcd.start(); err != nil {
		t.Fatal(err)
	}
	if err := c.apiserver.start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := c.waitReady(ctx); err != nil {
		c.fatalf("API server not ready: %v", err)
	}
	apiReady := time.Since(begin)

	// Controllers start while the CRD is being established; both finish
	// before any failure ends the test, so nothing starts after shutdown.
	var crdErr, ctrlErr error
	var wg sync.WaitGroup
	if opts.Controllers {
		wg.Go(func() { ctrlErr = c.startControllers(ctx) })
	}
	wg.Go(func() {
		if crdErr = c.installCRD(ctx, appsCRD); crdErr == nil {
			crdErr = c.waitDefaultNamespace(ctx)
		}
	})
	wg.Wait()
	if crdErr != nil {
		c.fatalf("App CRD and default namespace: %v", crdErr)
	}
	if ctrlErr != nil {
		c.fatalf("start controllers: %v", ctrlErr)
	}
	t.Logf("testcluster: API server ready in %s, all ready in %s (controllers=%v) at %s",
		apiReady.Round(time.Millisecond), time.Since(begin).Round(time.Millisecond), opts.Controllers, c.host)
	return c
}

// Host is the API server URL (https://127.0.0.1:<port>).
func (c *Cluster) Host() string { return c.host }

// Dir is the cluster's temporary folder (logs, certificates, etcd data).
func (c *Cluster) Dir() string { return c.dir }

// AdminConfig returns a new config for the system:masters administrator.
func (c *Cluster) AdminConfig() *rest.Config { return rest.CopyConfig(c.admin) }

// AdminClient is a typed clientset acting as the administrator.
func (c *Cluster) AdminClient() kubernetes.Interface { return c.adminKube }

// AdminDynamic is a dynamic client acting as the administrator.
func (c *Cluster) AdminDynamic() dynamic.Interface { return c.adminDyn }

// KubeconfigPath is the administrator's kubeconfig file (context "test").
func (c *Cluster) KubeconfigPath() string { return c.path("admin.kubeconfig") }

// UserConfig returns a config authenticating as user in groups with a client
// certificate signed by the cluster CA. RBAC decides what it may do.
func (c *Cluster) UserConfig(user string, groups ...string) *rest.Config {
	c.t.Helper()
	certPEM, keyPEM, err := c.ca.issueClient(user, groups)
	if err != nil {
		c.t.Fatalf("testcluster: client certificate for %s: %v", user, err)
	}
	return c.restConfig(certPEM, keyPEM)
}

func (c *Cluster) restConfig(certPEM, keyPEM []byte) *rest.Config {
	return &rest.Config{
		Host: c.host,
		TLSClientConfig: rest.TLSClientConfig{
			CAData: c.ca.certPEM, CertData: certPEM, KeyData: keyPEM,
		},
		QPS:   200,
		Burst: 400,
	}
}

func (c *Cluster) path(name string) string { return filepath.Join(c.dir, name) }

// fatalf ends the test; shutdown then shows the tail of every process log.
func (c *Cluster) fatalf(format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("testcluster: "+format, args...)
}

func (c *Cluster) processes() []*process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*process{c.etcd, c.apiserver}, c.others...)
}

func (c *Cluster) dumpLogs() {
	for _, p := range c.processes() {
		if p != nil {
			c.t.Logf("--- %s log (%s), last lines:\n%s", p.name, p.logPath, p.tail(40))
		}
	}
}

// shutdown stops every process by its process group; data is thrown away, so
// no grace period. Logs are shown when the test failed.
func (c *Cluster) shutdown() {
	if c.t.Failed() {
		c.dumpLogs()
		if c.opts.Controllers {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			out, err := c.Kubectl(ctx, "get", "events", "-A", "--sort-by=.lastTimestamp")
			cancel()
			c.t.Logf("--- events:\n%s%v", out, err)
		}
	}
	procs := c.processes()
	for i := len(procs) - 1; i >= 0; i-- {
		if procs[i] != nil {
			procs[i].stop(0)
		}
	}
}
