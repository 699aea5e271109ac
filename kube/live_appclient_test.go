package kube

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// Against a real API server the Apps are read by the hanzo.ai/v1 client
// that parses each object once, and its entries equal what the dynamic
// client's objects decode to (DecodeApp + managedFields), after the
// streaming first sync, after a watch event, and through a paged LIST.
func TestLiveAppsDecodedInOneParse(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("team-a", "team-b")
	for i, name := range names("svc", 7) {
		seed(t, c, []string{"team-a", "team-b"}[i%2], name, "service", "v1.0.0", 1)
	}
	createRawApp(t, c, "team-a", "bad", map[string]any{"replicas": "three", "image": map[string]any{"tag": 7}})
	patchApp(t, c, "team-b", "svc-001", `{"spec":{"image":{"tag":"v1.1.0"}}}`)
	c.InstallServiceCRD()
	_, err := c.AdminDynamic().Resource(servicesGVR).Namespace("team-b").Create(ctxT(t), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "Service", "metadata": map[string]any{"name": "gateway", "namespace": "team-b"},
		"spec": map[string]any{"image": map[string]any{"repository": "ghcr.io/hanzoai/gateway", "tag": "v3.0.0"}},
	}}, metav1.CreateOptions{})
	must(t, err)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	cl := f.clusters[0]
	if cl.clients.apps == nil {
		t.Fatal("NewClusterClients made no hanzo.ai/v1 client for a real cluster")
	}
	if n := cl.clients.apps.decoded.Load(); n < 9 {
		t.Fatalf("the hanzo.ai/v1 client decoded %d Apps and Services in the first sync, want all 9", n)
	}
	sameAsDynamic := func(what string) {
		t.Helper()
		for _, r := range []schema.GroupVersionResource{appsGVR, servicesGVR} {
			list, err := c.AdminDynamic().Resource(r).List(ctxT(t), metav1.ListOptions{})
			must(t, err)
			for i := range list.Items {
				sameEntry(t, what, r.Resource, cl, &list.Items[i])
			}
		}
	}
	sameAsDynamic("first sync")
	if e, _ := cl.scopeFor("team-b").get("services", "team-b", "gateway").(*wire.AppEntry); e == nil || e.App.Kind != "Service" || e.App.ImageTag != "v3.0.0" {
		t.Errorf("the Service's entry: %+v", e)
	}
	if r := findRow(f.Snapshot(), key("team-a", "bad")); r == nil || !r.HasProblem(model.ProblemMalformed) {
		t.Errorf("malformed App's row: %+v", r)
	}

	before := cl.clients.apps.decoded.Load()
	patchApp(t, c, "team-a", "svc-000", `{"spec":{"image":{"tag":"v2.0.0"}}}`)
	waitRow(t, f, key("team-a", "svc-000"), "patched tag", func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v2.0.0" })
	if cl.clients.apps.decoded.Load() <= before {
		t.Error("the watch event did not go through the hanzo.ai/v1 client")
	}
	sameAsDynamic("after a watch event")

	// The fallback LIST, paged: every page's items decoded, nothing lost.
	src := restApps{c: cl.clients.apps, resource: "apps"}
	seen := map[string]bool{}
	for o := (metav1.ListOptions{Limit: 3}); ; {
		page, err := src.list(ctxT(t), o)
		must(t, err)
		for _, e := range page.Items {
			seen[e.Namespace+"/"+e.Name] = true
			if e.App.Name != e.Name || e.App.Kind != "App" {
				t.Errorf("listed entry %s: %+v", e.Name, e.App)
			}
		}
		if o.Continue = page.Continue; o.Continue == "" {
			break
		}
	}
	if len(seen) != 8 {
		t.Errorf("paged LIST gave %d Apps, want 8", len(seen))
	}
}

// A watch from a resourceVersion the API server no longer has ends with an
// ERROR event carrying a 410 Status (what makes the reflector re-list
// instead of retrying the same watch).
func TestLiveAppWatchTooOldResourceVersion(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("team-a")
	seed(t, c, "team-a", "svc-000", "service", "v1.0.0", 1)
	cfg := c.AdminConfig()
	hc, err := rest.HTTPClientFor(cfg)
	must(t, err)
	ac, err := newAppsClient(testClusterName, cfg, hc)
	must(t, err)
	w, err := restApps{c: ac, resource: "apps"}.watch(ctxT(t), metav1.ListOptions{ResourceVersion: "1"})
	must(t, err)
	defer w.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed without an event")
		}
		err := apierrors.FromObject(ev.Object)
		if ev.Type != watch.Error || !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
			t.Fatalf("event %s %T (%v), want ERROR with 410 Expired", ev.Type, ev.Object, err)
		}
		if s, ok := ev.Object.(*metav1.Status); !ok || s.Code != http.StatusGone {
			t.Fatalf("ERROR object %#v, want a 410 Status", ev.Object)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no event in 30 s")
	}
}

// sameEntry: the cached entry of u equals what the dynamic client's object
// decodes to.
func sameEntry(t *testing.T, what, resource string, cl *cluster, u *unstructured.Unstructured) {
	t.Helper()
	want := wire.AppEntryOf(testClusterName, u)
	got, _ := cl.scopeFor(u.GetNamespace()).get(resource, u.GetNamespace(), u.GetName()).(*wire.AppEntry)
	if got == nil {
		t.Fatalf("%s: %s %s/%s not cached", what, resource, u.GetNamespace(), u.GetName())
	}
	if diff := cmp.Diff(want.App, got.App); diff != "" {
		t.Errorf("%s: %s/%s (-dynamic +cached):\n%s", what, u.GetNamespace(), u.GetName(), diff)
	}
	if got.EntryMeta.ResourceVersion != u.GetResourceVersion() || got.EntryMeta.UID != u.GetUID() {
		t.Errorf("%s: %s/%s cache key %+v", what, u.GetNamespace(), u.GetName(), got.EntryMeta)
	}
}
