package karmadatest

import (
	"context"
	"fmt"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Join registers member as a push-mode Cluster named name: a token of a
// service account bound to cluster-admin on the member, in a Secret Karmada
// reads, and the Cluster marked Ready (the controller-manager that would
// probe it does not run). The member gets the Hanzo CD Application CRD too,
// so every kind of the registry is served on it.
func (k *Karmada) Join(name string, member *testcluster.Cluster) {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	member.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	token, err := memberToken(ctx, member)
	if err != nil {
		k.fatalf("join %s: %v", name, err)
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "karmada-cluster"},
		Data:       map[string][]byte{"token": []byte(token), "caBundle": member.AdminConfig().CAData},
	}
	if _, err := k.host.AdminClient().CoreV1().Secrets("karmada-cluster").Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		k.fatalf("join %s: secret: %v", name, err)
	}
	cluster := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"apiEndpoint": member.Host(), "syncMode": "Push",
			"secretRef": map[string]any{"namespace": "karmada-cluster", "name": name},
		},
	}}
	if _, err := k.dyn.Resource(clustersGVR).Create(ctx, cluster, metav1.CreateOptions{}); err != nil {
		k.fatalf("join %s: cluster: %v", name, err)
	}
	if err := k.SetReady(ctx, name, true, "joined by the test"); err != nil {
		k.fatalf("join %s: %v", name, err)
	}
}

// SetReady writes the Cluster's Ready condition, as the controller-manager's
// status controller would after probing the member.
func (k *Karmada) SetReady(ctx context.Context, name string, ready bool, message string) error {
	status, reason := "True", "ClusterReady"
	if !ready {
		status, reason = "False", "ClusterNotReachable"
	}
	clusters := k.dyn.Resource(clustersGVR)
	got, err := clusters.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("cluster %s: %w", name, err)
	}
	cond := map[string]any{"type": "Ready", "status": status, "reason": reason, "message": message,
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}
	if err := unstructured.SetNestedSlice(got.Object, []any{cond}, "status", "conditions"); err != nil {
		return err
	}
	if _, err := clusters.UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("cluster %s status: %w", name, err)
	}
	return nil
}

func memberToken(ctx context.Context, member *testcluster.Cluster) (string, error) {
	kube := member.AdminClient()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "karmada", Namespace: "kube-system"}}
	if _, err := kube.CoreV1().ServiceAccounts("kube-system").Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", fmt.Errorf("service account: %w", err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "karmada"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "karmada", Namespace: "kube-system"}},
	}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", fmt.Errorf("cluster role binding: %w", err)
	}
	day := int64(24 * 3600)
	tr, err := kube.CoreV1().ServiceAccounts("kube-system").CreateToken(ctx, "karmada",
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &day}}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return tr.Status.Token, nil
}

// Registry is what the board reads through the proxy: Apps, the workloads,
// their ReplicaSets, Hanzo CD's Applications and the namespaces' labels.
var Registry = []struct{ APIVersion, Kind, Path string }{
	{"hanzo.ai/v1", "App", "/apis/hanzo.ai/v1/apps"},
	{"apps/v1", "Deployment", "/apis/apps/v1/deployments"},
	{"apps/v1", "StatefulSet", "/apis/apps/v1/statefulsets"},
	{"apps/v1", "ReplicaSet", "/apis/apps/v1/replicasets"},
	{"apps.hanzo.ai/v1alpha1", "Application", "/apis/apps.hanzo.ai/v1alpha1/applications"},
	{"v1", "Namespace", "/api/v1/namespaces"},
}

// Cache makes the search proxy cache Registry's kinds of the named members,
// and waits until each kind is served through the proxy.
func (k *Karmada) Cache(members ...string) {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	selectors := make([]any, 0, len(Registry))
	for _, r := range Registry {
		selectors = append(selectors, map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind})
	}
	names := make([]any, 0, len(members))
	for _, m := range members {
		names = append(names, m)
	}
	rr := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "search.karmada.io/v1alpha1", "kind": "ResourceRegistry",
		"metadata": map[string]any{"name": "driftboard"},
		"spec": map[string]any{
			"targetCluster":     map[string]any{"clusterNames": names},
			"resourceSelectors": selectors,
		},
	}}
	if _, err := k.dyn.Resource(registriesGVR).Create(ctx, rr, metav1.CreateOptions{}); err != nil {
		k.fatalf("resource registry: %v", err)
	}
	for _, r := range Registry {
		if err := k.waitServed(ctx, ProxyPath+r.Path+"?resourceVersion=0"); err != nil {
			k.fatalf("%s through the proxy: %v", r.Kind, err)
		}
	}
}

// Remove deletes the member's Cluster from Karmada (unjoin).
func (k *Karmada) Remove(ctx context.Context, name string) error {
	return k.dyn.Resource(clustersGVR).Delete(ctx, name, metav1.DeleteOptions{})
}
