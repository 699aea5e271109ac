package testcluster

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// PutUniverseCRs writes Hanzo CD's universe-crs Application in hanzo-cd at
// revision, listing the Apps of namespace hanzo with their sync status
// (syncs: name → Synced/OutOfSync); the Application itself says
// OutOfSync. Hanzo CD's Application has no status
// subresource, so the status goes in with the object.
func (c *Cluster) PutUniverseCRs(ctx context.Context, revision string, syncs map[string]string) error {
	var resources []any
	for name, st := range syncs {
		resources = append(resources, map[string]any{"group": "hanzo.ai", "version": "v1", "kind": "App",
			"namespace": "hanzo", "name": name, "status": st})
	}
	status := map[string]any{
		"sync": map[string]any{"status": "OutOfSync", "revision": revision}, // as the tests have always had it
		"operationState": map[string]any{"phase": "Succeeded", "message": "successfully synced",
			"finishedAt": "2026-12-01T07:00:00Z"},
		"resources": resources,
	}
	apps := c.adminDyn.Resource(HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	got, err := apps.Get(ctx, "universe-crs", metav1.GetOptions{})
	if err == nil {
		got.Object["status"] = status
		_, err = apps.Update(ctx, got, metav1.UpdateOptions{})
	} else {
		_, err = apps.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
			"spec":     map[string]any{"source": map[string]any{"path": "infra/k8s/operator/crs"}},
			"status":   status,
		}}, metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("write Application universe-crs: %w", err)
	}
	return nil
}
