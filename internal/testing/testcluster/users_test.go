package testcluster

import (
	"context"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

func TestClientCertUsersRBACAndAudit(t *testing.T) {
	c := Start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c.CreateNamespaces("hanzo", "tenant-acme")
	for _, ns := range []string{"hanzo", "tenant-acme"} {
		if _, err := c.CreateApp(ctx, ns, "web", "spa", "ghcr.io/hanzoai/web", "v1.0.0", 1); err != nil {
			t.Fatal(err)
		}
	}
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "app-reader", Namespace: "tenant-acme"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{"hanzo.ai"}, Resources: []string{"apps"}, Verbs: []string{"get", "list", "watch"}}},
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "acme-admins", Namespace: "tenant-acme"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "app-reader"},
		Subjects:   []rbacv1.Subject{{Kind: "Group", APIGroup: "rbac.authorization.k8s.io", Name: "acme-admins"}},
	}
	rbac := c.AdminClient().RbacV1()
	if _, err := rbac.Roles("tenant-acme").Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rbac.RoleBindings("tenant-acme").Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	alice, err := dynamic.NewForConfig(c.UserConfig("alice", "acme-admins"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := alice.Resource(AppsGVR).Namespace("tenant-acme").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("alice lists apps in tenant-acme: %v", err)
	}
	if len(list.Items) != 1 {
		t.Errorf("alice sees %d apps in tenant-acme, want 1", len(list.Items))
	}
	_, err = alice.Resource(AppsGVR).Namespace("hanzo").List(ctx, metav1.ListOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("alice lists apps in hanzo: err = %v, want forbidden", err)
	}

	events, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	var sawDenied bool
	for _, ev := range events {
		if ev.User.Username == "alice" && ev.Verb == "list" && ev.ObjectRef != nil &&
			ev.ObjectRef.Resource == "apps" && ev.ObjectRef.Namespace == "hanzo" &&
			ev.ResponseStatus != nil && ev.ResponseStatus.Code == 403 {
			sawDenied = true
		}
	}
	if !sawDenied {
		t.Errorf("no audit event for alice's refused list in hanzo among %d events", len(events))
	}
}

// The CRD keeps spec and status untyped so tests can store what a drifting
// fleet may hold.
func TestMalformedAppsAreStorable(t *testing.T) {
	c := Start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	apps := c.AdminDynamic().Resource(AppsGVR).Namespace("default")
	bad := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "App",
		"metadata": map[string]any{"name": "bad"},
		"spec":     map[string]any{"replicas": "three", "image": "not-an-object", "role": 7},
	}}
	created, err := apps.Create(ctx, bad, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create malformed app: %v", err)
	}
	created.Object["status"] = map[string]any{"readyReplicas": "many", "conditions": "none"}
	if _, err := apps.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("store malformed status: %v", err)
	}
	noSpec := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "App", "metadata": map[string]any{"name": "no-spec"},
	}}
	if _, err := apps.Create(ctx, noSpec, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create app without spec: %v", err)
	}
	got, err := apps.Get(ctx, "bad", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := unstructured.NestedFieldNoCopy(got.Object, "spec", "replicas"); v != "three" {
		t.Errorf("spec.replicas stored as %#v, want \"three\"", v)
	}
}
