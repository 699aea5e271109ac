package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// badApp is one way a committed App can be wrong: a spec, and optionally a
// status written through the status subresource.
type badApp struct {
	what   string
	spec   map[string]any // nil: no spec at all
	status map[string]any
}

func image(tag any) map[string]any {
	return map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": tag}
}

var badApps = []badApp{
	{what: "image is a string", spec: map[string]any{"image": "ghcr.io/hanzoai/x:v1"}},
	{what: "tag is a number", spec: map[string]any{"image": image(int64(7))}},
	{what: "tag is an object", spec: map[string]any{"image": image(map[string]any{"v": "1"})}},
	{what: "replicas is a word", spec: map[string]any{"replicas": "three", "image": image("v1.0.0")}},
	{what: "replicas is huge", spec: map[string]any{"replicas": 1e30, "image": image("v1.0.0")}},
	{what: "replicas is negative", spec: map[string]any{"replicas": int64(-5), "image": image("v1.0.0")}},
	{what: "replicas is a fraction", spec: map[string]any{"replicas": 2.5, "image": image("v1.0.0")}},
	{what: "role is a number", spec: map[string]any{"role": int64(7), "image": image("v1.0.0")}},
	{what: "repository is a list", spec: map[string]any{"image": map[string]any{"repository": []any{"a"}, "tag": "v1.0.0"}}},
	{what: "image is a list", spec: map[string]any{"image": []any{"ghcr.io/hanzoai/x", "v1"}}},
	{what: "tag is 20 KB", spec: map[string]any{"image": image(strings.Repeat("9", 20000))}},
	{what: "no spec"},
	{what: "status counts are words", spec: map[string]any{"image": image("v1.0.0")},
		status: map[string]any{"readyReplicas": "many", "phase": "Running"}},
	{what: "status conditions is a string", spec: map[string]any{"image": image("v1.0.0")},
		status: map[string]any{"conditions": "none"}},
	{what: "status endpoints are numbers", spec: map[string]any{"image": image("v1.0.0")},
		status: map[string]any{"endpoints": []any{int64(1), int64(2)}}},
	{what: "status phase is an object", spec: map[string]any{"image": image("v1.0.0")},
		status: map[string]any{"phase": map[string]any{"x": "y"}}},
}

// 1,000 malformed Apps mixed with 200 good ones (and their Deployments):
// every good row is right, every bad one is on the board saying what is
// malformed, none is missing, none is extra.
func TestThousandMalformedAppsAmongGoodOnes(t *testing.T) {
	t.Parallel()
	c := testcluster.Start(t, testcluster.Options{})
	nss := []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet", "tenant-acme"}
	c.CreateNamespaces(nss...)
	cfg := c.AdminConfig()
	cfg.QPS, cfg.Burst = 2000, 2000
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const nBad, nGood = 1000, 200
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var next atomic.Int64
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= nBad+nGood {
					return
				}
				ns := nss[i%len(nss)]
				var err error
				if i < nBad {
					err = createBad(ctx, dyn, ns, fmt.Sprintf("bad-%04d", i), badApps[i%len(badApps)])
				} else {
					n := fmt.Sprintf("good-%04d", i)
					err = c.SeedApp(ctx, ns, n, "service", "ghcr.io/hanzoai/"+n, fmt.Sprintf("v1.%d.0", i), 1)
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d objects could not be stored, first: %v", len(errs), errs[0])
	}

	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	snap := waitBoard(t, f, 60*time.Second, "every App on the board", func(s *store.Snapshot) bool {
		return s.Len() >= nBad+nGood
	})
	if snap.Len() != nBad+nGood {
		t.Fatalf("%d rows, want %d", snap.Len(), nBad+nGood)
	}
	seen := map[model.Key]bool{}
	wrong := 0
	for _, r := range snap.Rows() {
		if seen[r.Key()] {
			t.Errorf("row %s twice", r.Key())
		}
		seen[r.Key()] = true
		i := 0
		if _, err := fmt.Sscanf(r.App[strings.IndexByte(r.App, '-')+1:], "%d", &i); err != nil {
			t.Errorf("unexpected row %s", r.Key())
			continue
		}
		switch {
		case strings.HasPrefix(r.App, "bad-"):
			if !r.HasProblem(model.ProblemMalformed) {
				wrong++
				if wrong <= 5 {
					t.Errorf("%s (%s): no malformed problem on the row; problems %q", r.Key(), badApps[i%len(badApps)].what, r.Problems)
				}
			}
		case strings.HasPrefix(r.App, "good-"):
			if r.DeclaredTag != fmt.Sprintf("v1.%d.0", i) || !r.Workload.Found || !r.Workload.OwnedByApp || len(r.Problems) != 0 {
				wrong++
				if wrong <= 5 {
					t.Errorf("good row %s wrong: tag %q workload %+v problems %q", r.Key(), r.DeclaredTag, r.Workload, r.Problems)
				}
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d rows wrong in all", wrong)
	}
}

func createBad(ctx context.Context, dyn dynamic.Interface, ns, name string, b badApp) error {
	obj := map[string]any{"apiVersion": "hanzo.ai/v1", "kind": "App", "metadata": map[string]any{"name": name, "namespace": ns}}
	if b.spec != nil {
		obj["spec"] = b.spec
	}
	res := dyn.Resource(testcluster.AppsGVR).Namespace(ns)
	created, err := res.Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create %s/%s (%s): %w", ns, name, b.what, err)
	}
	if b.status != nil {
		created.Object["status"] = b.status
		if _, err := res.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("status of %s/%s (%s): %w", ns, name, b.what, err)
		}
	}
	return nil
}
