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
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// TestRowsAppearWhileTheListsStream: against a real API server whose App
// stream is held after its first events and whose Deployment and ReplicaSet
// lists are held entirely (a gate in the client's transport, so nothing depends on timing),
// the Apps seen so far are on the board at once, their workloads pending —
// never missing, never healthy, never drift; once the Deployments are
// listed the rows show them while the Apps still stream; once synced, every
// row is built from the caches and an App deleted meanwhile is gone.
func TestRowsAppearWhileTheListsStream(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 24)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	createRawApp(t, c, "hanzo", "svc-999", map[string]any{"role": "service", // no workload at all
		"image": map[string]any{"repository": "ghcr.io/hanzoai/svc-999", "tag": "v1.0.0"}})
	const firstEvents = 8 // svc-000 … svc-007: the stream is in name order

	g := newListGate(firstEvents)
	cfg := c.AdminConfig()
	cfg.WrapTransport = g.wrap
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	must(t, err)
	cc.Identity = model.ClusterIdentity{IAM: true}
	f := NewFleet(FleetOptions{Principal: principal(superAdmin)}, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	t.Cleanup(g.releaseAll)
	f.Start(ctx)

	// 1. Apps stream held after 8 events, Deployments held: 8 pending rows.
	snap := waitFor(t, f, "the first streamed Apps on the board", func(s *model.Snapshot) bool { return s.Len() >= firstEvents })
	if st := snap.Clusters[0]; st.Phase != model.ConnSyncing {
		t.Fatalf("cluster %s while its lists are held; want syncing", st.Phase)
	}
	if snap.Len() != firstEvents {
		t.Fatalf("%d rows while %d Apps were streamed", snap.Len(), firstEvents)
	}
	for _, r := range snap.Rows() {
		assertPending(t, r)
	}
	if d := f.CheckRestart(ctx, key("hanzo", "svc-000")); d.Allowed || !strings.Contains(d.Reason, "syncing") {
		t.Errorf("restart of a pending row: allowed %v, reason %q", d.Allowed, d.Reason)
	}
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its lists held: the gate does not hold")
	}

	// 2. Deployments listed, ReplicaSets not yet: still pending (what the
	// pods run is not known). Then ReplicaSets listed (there are none: no
	// controllers run, so no event marks the rows), Apps still held: the
	// rows show the real workloads.
	must(t, c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Delete(ctxT(t), "svc-003", metav1.DeleteOptions{}))
	close(g.deployments)
	waitFor(t, f, "the Deployments listed", func(*model.Snapshot) bool {
		return f.clusters[0].scopeFor("hanzo").inf["deployments"].HasSynced()
	})
	for _, r := range f.Snapshot().Rows() {
		assertPending(t, r)
	}
	close(g.replicasets)
	waitFor(t, f, "the listed Deployments on the provisional rows", func(s *model.Snapshot) bool {
		for _, r := range s.Rows() {
			if r.WaitsOnWorkload() || !r.Workload.Found || r.RunningTag != "v1.0.0" || r.Health == model.HealthSyncing {
				return false
			}
		}
		return s.Len() == firstEvents
	})
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its App stream held")
	}

	// 3. The rest of the stream: every row from the caches, svc-003 gone.
	close(g.apps)
	snap = waitFor(t, f, "the synced board", func(s *model.Snapshot) bool {
		return s.Clusters[0].Phase == model.ConnLive && s.Len() == len(all) && findRow(s, key("hanzo", "svc-003")) == nil
	})
	cl := f.clusters[0]
	for _, r := range snap.Rows() {
		if r.WaitsOnWorkload() || r.Health == model.HealthSyncing {
			t.Errorf("%s still pending after the sync: %+v", r.App, r.Workload)
		}
		// A row the sync did not rebuild (built final while syncing) is what
		// a rebuild from the caches gives.
		if fresh, ok := f.rebuild(cl, r.Key(), r.ObservedAt); !ok {
			t.Errorf("%s is on the board but not in the caches", r.App)
		} else if diff := cmp.Diff(fresh, *r); diff != "" {
			t.Errorf("%s after the sync differs from a rebuild (-rebuild +board):\n%s", r.App, diff)
		}
		if r.Git.Why == model.GitWhyNotSynced {
			t.Errorf("%s keeps the git state of a syncing cluster: %+v", r.App, r.Git)
		}
		if r.App == "svc-999" {
			if !r.HasProblem(model.ProblemNoWorkload) {
				t.Errorf("svc-999 has no Deployment, and once listed that is said: %v", r.Problems)
			}
		} else if !r.Workload.Found || r.RunningTag != "v1.0.0" {
			t.Errorf("%s after the sync: found %v running %q", r.App, r.Workload.Found, r.RunningTag)
		}
	}
}

func assertPending(t *testing.T, r *model.AppView) {
	t.Helper()
	if !r.WaitsOnWorkload() || r.Health != model.HealthSyncing || r.Workload.Found || r.RunningTag != "" {
		t.Errorf("%s: want a pending workload, got health %q running %q workload %+v", r.App, r.Health, r.RunningTag, r.Workload)
	}
	if !strings.Contains(r.Workload.Pending, "not listed yet") {
		t.Errorf("%s: pending without why: %q", r.App, r.Workload.Pending)
	}
	if r.HasProblem(model.ProblemNoWorkload) || len(r.Problems) > 0 {
		t.Errorf("%s: a workload not listed yet reads as a problem: %v", r.App, r.Problems)
	}
	for _, fl := range r.Drift.Flags {
		if fl.Kind == drift.DriftUnrolled || fl.Kind == drift.DriftFloatingRunning {
			t.Errorf("%s: drift %s without a running tag", r.App, fl.Kind)
		}
	}
	if r.Offline {
		t.Errorf("%s: a syncing cluster's row is not offline", r.App)
	}
}

func waitFor(t *testing.T, f *Fleet, what string, ok func(*model.Snapshot) bool) *model.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last *model.Snapshot
	for {
		last = f.Snapshot()
		if ok(last) {
			return last
		}
		select { // on change signals only: a row marked without one would never show
		case <-f.Changed():
		case <-ctx.Done():
			t.Fatalf("%s: never; last snapshot has %d rows, clusters %+v", what, last.Len(), last.Clusters)
		}
	}
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
	once        sync.Once
}

func newListGate(first int) *listGate {
	return &listGate{first: first, deployments: make(chan struct{}), replicasets: make(chan struct{}), apps: make(chan struct{})}
}

func (g *listGate) releaseAll() {
	g.once.Do(func() {
		for _, ch := range []chan struct{}{g.deployments, g.replicasets, g.apps} {
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
			resp.Body = &heldBody{r: bufio.NewReader(resp.Body), c: resp.Body, left: g.first, gate: g.apps, ctx: req.Context()}
		}
		return resp, err
	})
}

// heldBody passes the first left lines of a watch stream, then waits for
// the gate before passing the rest.
type heldBody struct {
	r    *bufio.Reader
	c    io.Closer
	left int
	gate <-chan struct{}
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
	return b.r.Read(p)
}

func (b *heldBody) Close() error { return b.c.Close() }

// TestRowsAppearFromListPages: where the server refuses streaming lists the
// reflector falls back to LIST; the Apps of its pages are on the board,
// pending, while the workload lists are held, and normal once synced.
func TestRowsAppearFromListPages(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	all := names("svc", 12)
	for _, name := range all {
		seed(t, c, "hanzo", name, "service", "v1.0.0", 1)
	}
	g := newListGate(0)
	g.refuse = true
	cfg := c.AdminConfig()
	cfg.WrapTransport = g.wrap
	cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{})
	must(t, err)
	f := NewFleet(FleetOptions{}, cc)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	t.Cleanup(g.releaseAll)
	f.Start(ctx)

	snap := waitFor(t, f, "the listed Apps on the board", func(s *model.Snapshot) bool { return s.Len() == len(all) })
	if f.clusters[0].isSynced() {
		t.Fatal("the cluster synced with its workload lists held")
	}
	if g.refused.Load() == 0 {
		t.Fatal("no streaming list was refused: the LIST fallback was not exercised")
	}
	for _, r := range snap.Rows() {
		assertPending(t, r)
	}
	for _, n := range snap.Clusters[0].Notices {
		if strings.Contains(n, "could not be read") {
			t.Errorf("notice: %s", n)
		}
	}
	close(g.deployments)
	close(g.replicasets)
	waitFor(t, f, "the synced board", func(s *model.Snapshot) bool {
		if s.Clusters[0].Phase != model.ConnLive || s.Len() != len(all) {
			return false
		}
		for _, r := range s.Rows() {
			if !r.Workload.Found || r.RunningTag != "v1.0.0" {
				return false
			}
		}
		return true
	})
}
