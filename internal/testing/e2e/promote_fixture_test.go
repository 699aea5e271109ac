package e2e

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/testing/githubtest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// seededApp is an App of hanzo-testnet and the tag it declares.
type seededApp struct{ name, tag string }

// universeFleet is a cluster whose Apps of hanzo-testnet are synced by
// Hanzo CD's Application universe-crs from the crs directory of a GitHub
// test server's universe repository holding files.
func universeFleet(ctx context.Context, t *testing.T, opts testcluster.Options, apps []seededApp, files map[string]string) (*testcluster.Cluster, *githubtest.Server) {
	t.Helper()
	c := testcluster.Start(t, opts)
	c.CreateNamespaces("hanzo-testnet", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	var resources []any
	for _, a := range apps {
		if err := c.SeedApp(ctx, "hanzo-testnet", a.name, "service", "ghcr.io/hanzoai/"+a.name, a.tag, 1); err != nil {
			t.Fatal(err)
		}
		resources = append(resources, map[string]any{"group": "hanzo.ai", "kind": "App", "namespace": "hanzo-testnet", "name": a.name, "status": "Synced"})
	}
	gh := githubtest.New(t, githubtest.Options{Files: files})
	if _, err := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd").Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
		"spec":     map[string]any{"source": map[string]any{"repoURL": gh.URL + "/hanzoai/universe.git", "path": "crs", "targetRevision": "main"}},
		"status":   map[string]any{"sync": map[string]any{"status": "Synced", "revision": gh.Head("main")}, "resources": resources},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return c, gh
}
