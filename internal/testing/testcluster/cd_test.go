package testcluster

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Both CD Application CRDs install beside the App CRD, each with the short
// names app/apps that collide with the App's, and store an Argo-shaped status
// with a plain update (Argo CD's Application has no status subresource).
func TestApplicationCRDs(t *testing.T) {
	c := Start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	disc := c.AdminClient().Discovery()
	if _, err := disc.ServerResourcesForGroupVersion(HanzoCDApplicationsGVR.GroupVersion().String()); err == nil {
		t.Fatal("a fresh cluster already serves Hanzo CD's Application; tests need a cluster without one")
	}
	c.CreateNamespaces("hanzo-cd")
	for _, gvr := range []schema.GroupVersionResource{HanzoCDApplicationsGVR, ArgoApplicationsGVR} {
		c.InstallApplicationCRD(gvr.Group)
		list, err := disc.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
		if err != nil {
			t.Fatalf("discovery of %s: %v", gvr.GroupVersion(), err)
		}
		var short []string
		for _, r := range list.APIResources {
			if r.Name == "applications" {
				short = r.ShortNames
			}
		}
		if !slices.Contains(short, "app") || !slices.Contains(short, "apps") {
			t.Errorf("%s short names = %v, want app and apps (the collision the board must survive)", gvr, short)
		}
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": gvr.GroupVersion().String(), "kind": "Application",
			"metadata": map[string]any{"name": "universe-crs", "namespace": "hanzo-cd"},
			"spec":     map[string]any{"source": map[string]any{"path": "infra/k8s/operator/crs"}},
		}}
		apps := c.AdminDynamic().Resource(gvr).Namespace("hanzo-cd")
		got, err := apps.Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create %s Application: %v", gvr.Group, err)
		}
		_ = unstructured.SetNestedField(got.Object, "OutOfSync", "status", "sync", "status")
		if got, err = apps.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("update %s Application status: %v", gvr.Group, err)
		}
		if s, _, _ := unstructured.NestedString(got.Object, "status", "sync", "status"); s != "OutOfSync" {
			t.Errorf("%s Application status.sync.status = %q after update, want OutOfSync", gvr.Group, s)
		}
	}
	// The App CRD still answers under its full name.
	if _, err := c.AdminDynamic().Resource(AppsGVR).Namespace("hanzo-cd").List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("list hanzo.ai apps beside the Application CRDs: %v", err)
	}
}
