package kube

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/karmada"
)

// A proxy watch that ends (here after 2 s, as every watch does after its
// timeout) resumes from its last resourceVersion, the proxy's per-cluster
// map, and lists nothing again: one LIST in Karmada's audit log for many
// watches.
func TestKarmadaProxyWatchResumesWithoutRelisting(t *testing.T) {
	k := karmadatest.Start(t)
	m1 := testcluster.Start(t, testcluster.Options{})
	k.Join("member1", m1)
	k.Cache("member1")
	ctx := ctxT(t)
	m1.CreateNamespaces("hanzo")
	if err := m1.SeedApp(ctx, "hanzo", "web", "service", "ghcr.io/hanzoai/web", "v1", 1); err != nil {
		t.Fatal(err)
	}
	cfg := k.ProxyConfig()
	cfg.UserAgent = "driftboard-resume"
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	apps := dyn.Resource(appsGVR)
	short := int64(2)
	feed := karmada.NewFeed(karmada.Kind{Name: "apps", Example: &unstructuredExample, Cached: &unstructuredExample,
		List: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return apps.List(ctx, o) },
		Watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.TimeoutSeconds = &short
			return apps.Watch(ctx, o)
		},
		Convert: func(_ string, obj runtime.Object) (runtime.Object, error) { return obj, nil },
	}, []string{"member1"}, func(error) {})
	rctx, cancel := context.WithCancel(ctx)
	go feed.Run(rctx)
	time.Sleep(9 * time.Second)
	cancel()
	time.Sleep(time.Second)
	events, err := k.Host().AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var lists, watches []string
	for _, e := range events {
		if e.UserAgent != "driftboard-resume" || seen[e.AuditID] || !strings.Contains(e.RequestURI, "/apps") {
			continue
		}
		seen[e.AuditID] = true
		u, err := url.Parse(e.RequestURI)
		if err != nil {
			t.Fatal(err)
		}
		if u.Query().Get("watch") == "true" {
			watches = append(watches, u.Query().Get("resourceVersion"))
		} else {
			lists = append(lists, e.RequestURI)
		}
	}
	if len(watches) < 3 {
		t.Errorf("%d watches in 9 s of 2 s watches, want at least 3: %q", len(watches), watches)
	}
	if len(lists) != 1 {
		t.Errorf("%d LISTs through the proxy, want 1 (watches resumed from %q): %q", len(lists), watches, lists)
	}
}
