package kube

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// startGatedFleet runs a Fleet of c whose requests pass g, until the test
// ends (its clients stand for ones carrying the IAM identity, as startFleet's).
func startGatedFleet(t *testing.T, c *testcluster.Cluster, g *listGate, opts FleetOptions) (*Fleet, context.Context) {
	t.Helper()
	t.Cleanup(g.releaseAll)
	return startFleetThrough(t, c, g.wrap, opts)
}

// startFleetThrough runs a Fleet of c whose requests pass wrap's transport.
func startFleetThrough(t *testing.T, c *testcluster.Cluster, wrap func(http.RoundTripper) http.RoundTripper, opts FleetOptions) (*Fleet, context.Context) {
	t.Helper()
	cfg := c.AdminConfig()
	cfg.WrapTransport = wrap
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	must(t, err)
	cc.Identity = model.ClusterIdentity{IAM: true}
	f := NewFleet(opts, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	return f, ctx
}

// listGate holds requests in the client's transport: every Deployment and
// ReplicaSet list or watch (but setup's one-item probe) until its channel
// is closed, and the App streaming list
// after its first lines (one event each) until apps is closed.
type listGate struct {
	first       int
	refuse      bool // answer the App streaming list 400: the reflector falls back to LIST
	refused     atomic.Int32
	deployments chan struct{}
	replicasets chan struct{}
	apps        chan struct{}
	// cut, when set, ends the first App stream (a clean EOF before the
	// end-of-list bookmark) once closed: the reflector streams the list
	// again from scratch, as after a dropped connection.
	cut     chan struct{}
	streams atomic.Int32 // App streaming lists requested
	// setup, when set, holds what setup asks besides discovery's probes
	// (the namespaces, CD groups' discovery, CRDs) until closed.
	setup     chan struct{}
	setupHeld atomic.Int32
	// namespaces, when set, holds the namespaces' list and watch (not
	// setup's one-item probe) until closed.
	namespaces chan struct{}
	once       sync.Once
}

// isExtraSetup is a request of setupExtras: the namespace probe and watch,
// CD groups' discovery, the CRD probes and watches.
func isExtraSetup(path string) bool {
	return path == "/api/v1/namespaces" || strings.HasPrefix(path, "/apis/apiextensions.k8s.io/") ||
		strings.HasPrefix(path, "/apis/apps.hanzo.ai/") || strings.HasPrefix(path, "/apis/argoproj.io/")
}

func newListGate(first int) *listGate {
	return &listGate{first: first, deployments: make(chan struct{}), replicasets: make(chan struct{}), apps: make(chan struct{})}
}

func (g *listGate) releaseAll() {
	g.once.Do(func() {
		for _, ch := range []chan struct{}{g.deployments, g.replicasets, g.apps, g.cut, g.setup, g.namespaces} {
			if ch == nil {
				continue
			}
			select {
			case <-ch:
			default:
				close(ch)
			}
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (g *listGate) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if g.setup != nil && isExtraSetup(req.URL.Path) {
			g.setupHeld.Add(1)
			select {
			case <-g.setup:
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		if g.namespaces != nil && req.URL.Path == "/api/v1/namespaces" && req.URL.Query().Get("limit") != "1" {
			select {
			case <-g.namespaces:
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		for suffix, gate := range map[string]chan struct{}{"/deployments": g.deployments, "/replicasets": g.replicasets} {
			if strings.HasSuffix(req.URL.Path, suffix) && req.URL.Query().Get("limit") != "1" { // not setup's access probe
				select {
				case <-gate:
				case <-req.Context().Done():
					return nil, req.Context().Err()
				}
			}
		}
		if g.refuse && strings.HasSuffix(req.URL.Path, "/hanzo.ai/v1/apps") && req.URL.Query().Get("sendInitialEvents") == "true" {
			g.refused.Add(1)
			body := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"streaming lists refused by the test","reason":"BadRequest","code":400}`
			return &http.Response{StatusCode: http.StatusBadRequest, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": []string{"application/json"}}, Body: io.NopCloser(strings.NewReader(body)),
				ContentLength: int64(len(body)), Request: req}, nil
		}
		resp, err := rt.RoundTrip(req)
		if err == nil && strings.HasSuffix(req.URL.Path, "/hanzo.ai/v1/apps") && req.URL.Query().Get("sendInitialEvents") == "true" {
			b := &heldBody{r: bufio.NewReader(resp.Body), c: resp.Body, left: g.first, gate: g.apps, ctx: req.Context()}
			if g.streams.Add(1) == 1 && g.cut != nil {
				b.gate, b.cut = g.cut, true
			}
			resp.Body = b
		}
		return resp, err
	})
}

// heldBody passes the first left lines of a watch stream, then waits for
// the gate before passing the rest (cut: before ending the stream).
type heldBody struct {
	r    *bufio.Reader
	c    io.Closer
	left int
	gate <-chan struct{}
	cut  bool
	ctx  context.Context
	buf  []byte
}

func (b *heldBody) Read(p []byte) (int, error) {
	if len(b.buf) > 0 {
		n := copy(p, b.buf)
		b.buf = b.buf[n:]
		return n, nil
	}
	if b.left > 0 {
		line, err := b.r.ReadBytes('\n')
		b.left--
		if len(line) == 0 {
			return 0, err
		}
		n := copy(p, line)
		b.buf = line[n:]
		return n, nil
	}
	if b.left == 0 {
		select {
		case <-b.gate:
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
		b.left = -1
	}
	if b.cut {
		return 0, io.EOF
	}
	return b.r.Read(p)
}

func (b *heldBody) Close() error { return b.c.Close() }
