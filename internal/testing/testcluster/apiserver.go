package testcluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func (c *Cluster) newEtcd(clientPort, peerPort int) *process {
	peer := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	return &process{
		name:    "etcd",
		path:    filepath.Join(c.binDir, "etcd"),
		logPath: c.path("etcd.log"),
		args: []string{
			"--name=testcluster",
			"--data-dir=" + c.path("etcd-data"),
			"--listen-client-urls=" + c.etcdURL,
			"--advertise-client-urls=" + c.etcdURL,
			"--listen-peer-urls=" + peer,
			"--initial-advertise-peer-urls=" + peer,
			"--initial-cluster=testcluster=" + peer,
			"--quota-backend-bytes=" + strconv.Itoa(2<<30),
			"--snapshot-count=5000",
			"--unsafe-no-fsync=true", // throwaway data: skip fsync, keep the disk and CPU quiet
			"--log-level=warn",
		},
	}
}

func (c *Cluster) newAPIServer() *process {
	args := []string{
		"--etcd-servers=" + c.etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(c.apiPort),
		"--cert-dir=" + c.path("apiserver-certs"),
		"--tls-cert-file=" + c.path("apiserver.crt"),
		"--tls-private-key-file=" + c.path("apiserver.key"),
		"--client-ca-file=" + c.path("ca.crt"),
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + c.path("service-account.pub"),
		"--service-account-signing-key-file=" + c.path("service-account.key"),
		"--service-cluster-ip-range=10.96.0.0/16",
		// On loopback the default reconciler would fight over the kubernetes
		// Service endpoints; nothing in tests needs them.
		"--endpoint-reconciler-type=none",
		"--audit-policy-file=" + c.path("audit-policy.yaml"),
		"--audit-log-path=" + c.path("audit.log"),
		"--audit-log-maxbackup=0",
		"--profiling=" + strconv.FormatBool(c.opts.Profiling),
	}
	if c.opts.Aggregation {
		args = append(args,
			"--requestheader-client-ca-file="+c.path("ca.crt"),
			"--requestheader-allowed-names="+frontProxyUser,
			"--requestheader-username-headers=X-Remote-User",
			"--requestheader-group-headers=X-Remote-Group",
			"--requestheader-extra-headers-prefix=X-Remote-Extra-",
			"--proxy-client-cert-file="+c.path("front-proxy-client.crt"),
			"--proxy-client-key-file="+c.path("front-proxy-client.key"))
	}
	if c.opts.OIDC {
		args = append(args, "--authentication-config="+c.path("authentication-config.yaml"))
	}
	return &process{
		name:    "kube-apiserver",
		path:    filepath.Join(c.binDir, "kube-apiserver"),
		logPath: c.path("kube-apiserver.log"),
		args:    args,
	}
}

// waitReady polls /readyz until the API server answers ok, failing early when
// etcd or the API server has exited.
func (c *Cluster) waitReady(ctx context.Context) error {
	var last string
	for {
		for _, p := range []*process{c.etcd, c.apiserver} {
			if ended, err := p.exited(); ended {
				return fmt.Errorf("%s exited: %v", p.name, err)
			}
		}
		status, body, err := c.get(ctx, "/readyz")
		if err == nil && status == http.StatusOK {
			return nil
		}
		if err != nil {
			last = err.Error()
		} else {
			last = fmt.Sprintf("HTTP %d: %s", status, body)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last answer: %s)", ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// get sends an authenticated admin GET to path on the API server.
func (c *Cluster) get(ctx context.Context, path string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.host+path, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := c.probe.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

func (c *Cluster) waitDefaultNamespace(ctx context.Context) error {
	return poll(ctx, func() (bool, error) {
		_, err := c.adminKube.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
		return err == nil, ignoreNotFound(err)
	})
}

// StopAPIServer stops the API server (SIGTERM, SIGKILL after 5 s) and leaves
// etcd running; clients see their connections drop.
func (c *Cluster) StopAPIServer() {
	c.t.Helper()
	c.mu.Lock()
	p := c.apiserver
	c.mu.Unlock()
	p.stop(5 * time.Second)
}

// KillAPIServer SIGKILLs the API server (a crash: no graceful close of
// watches) and waits until it has exited; StartAPIServer brings it back.
func (c *Cluster) KillAPIServer() {
	c.t.Helper()
	c.mu.Lock()
	p := c.apiserver
	c.mu.Unlock()
	p.stop(0)
}

// APIServerPID is the process id of the running API server, for tests that
// measure its resource use.
func (c *Cluster) APIServerPID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.apiserver.cmd.Process.Pid
}

// CollectAPIServerGarbage has the API server run a full garbage collection
// (net/http/pprof's heap?gc=1; needs Options.Profiling), so that what it
// served before is no longer on its heap.
func (c *Cluster) CollectAPIServerGarbage(ctx context.Context) error {
	_, err := c.adminKube.Discovery().RESTClient().Get().AbsPath("/debug/pprof/heap").Param("gc", "1").DoRaw(ctx)
	return err
}

// EtcdPID is the process id of the running etcd, for tests that measure its
// resource use.
func (c *Cluster) EtcdPID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.etcd.cmd.Process.Pid
}

// KillEtcd SIGKILLs etcd (a crash) and waits until it has exited, leaving
// the API server without a store; RestartEtcd brings it back.
func (c *Cluster) KillEtcd() {
	c.t.Helper()
	c.mu.Lock()
	p := c.etcd
	c.mu.Unlock()
	p.stop(0)
}

// EtcdURL is etcd's client URL (http://127.0.0.1:<port>), to change what the
// API server stores behind its back.
func (c *Cluster) EtcdURL() string { return c.etcdURL }

// StartAPIServer starts the API server again on the same port against the
// same etcd and waits until it is ready.
func (c *Cluster) StartAPIServer() {
	c.t.Helper()
	c.mu.Lock()
	if ended, _ := c.apiserver.exited(); !ended {
		c.mu.Unlock()
		c.t.Fatalf("testcluster: StartAPIServer: the API server is still running")
	}
	err := c.apiserver.start()
	c.mu.Unlock()
	if err != nil {
		c.t.Fatal(err)
	}
	c.waitReadyOrFail("API server after restart")
}

// RestartEtcd stops etcd (SIGTERM, SIGKILL after 1 s), starts it on the same
// data and ports, and waits until the API server is ready again.
func (c *Cluster) RestartEtcd() {
	c.t.Helper()
	c.mu.Lock()
	c.etcd.stop(time.Second)
	err := c.etcd.start()
	c.mu.Unlock()
	if err != nil {
		c.t.Fatal(err)
	}
	c.waitReadyOrFail("API server after etcd restart")
}

func (c *Cluster) waitReadyOrFail(what string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.waitReady(ctx); err != nil {
		c.fatalf("%s not ready: %v", what, err)
	}
}

// poll calls check every 50 ms until it reports done, returns an error, or
// ctx ends.
func poll(ctx context.Context, check func() (bool, error)) error {
	for {
		done, err := check()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
