package kube

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authzv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// The demo drives a Fleet with client-go fakes; this pins that contract
// (fakes do not speak watch-list, and their discovery knows no hanzo.ai).
// Informer behaviour proper is tested against the real API server.
func TestFleetRunsOnClientFakes(t *testing.T) {
	t.Parallel()
	app := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "App",
		"metadata": map[string]any{"name": "iam", "namespace": "hanzo", "uid": "a1"},
		"spec":     map[string]any{"image": map[string]any{"repository": "ghcr.io/hanzoai/iam", "tag": "v1.0.0"}},
	}}
	dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{appsGVR: "AppList", cd.CRDs: "CustomResourceDefinitionList"}, app)
	one := int32(1)
	yes := true
	kube := fake.NewClientset(&appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "iam", Namespace: "hanzo", UID: "d1",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "hanzo.ai/v1", Kind: "App", Name: "iam", UID: "a1", Controller: &yes}}},
		Spec: appsv1.DeploymentSpec{Replicas: &one, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.0.0"}}}}},
		Status: appsv1.DeploymentStatus{ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1, Replicas: 1},
	})
	f := NewFleet(FleetOptions{}, ClusterClients{Name: "demo", Kube: kube, Dynamic: dyn})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f.Start(ctx)
	if err := f.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	snap := waitSnapshot(ctx, t, f, func(s *store.Snapshot) bool { return s.Len() == 1 })
	r := snap.Rows()[0]
	if r.RunningTag != "v1.0.0" || !r.Workload.Found || !r.Workload.OwnedByApp || r.Offline {
		t.Errorf("row %+v", r)
	}
	if snap.Clusters[0].Phase != model.ConnLive {
		t.Errorf("cluster %+v", snap.Clusters[0])
	}

	// Restart through the fakes: the demo answers the access review itself.
	k := model.Key{Cluster: "demo", Namespace: "hanzo", Name: "iam"}
	if d := f.CheckRestart(ctx, k); d.Allowed {
		t.Errorf("a fake's empty access review must not read as allowed: %+v", d)
	}
	kube.PrependReactor("create", "selfsubjectaccessreviews", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, &authzv1.SelfSubjectAccessReview{Status: authzv1.SubjectAccessReviewStatus{Allowed: true}}, nil
	})
	if err := f.Restart(ctx, k); err != nil {
		t.Fatal(err)
	}
	d, err := kube.AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	if err != nil || d.Spec.Template.Annotations[model.RestartedAtAnnotation] == "" {
		t.Errorf("fake deployment after restart: %v %v", d.Spec.Template.Annotations, err)
	}
}

// waitSnapshot takes snapshots on every change signal until ok or ctx ends.
func waitSnapshot(ctx context.Context, t testing.TB, f *Fleet, ok func(*store.Snapshot) bool) *store.Snapshot {
	t.Helper()
	for {
		s := f.Snapshot()
		if ok(s) {
			return s
		}
		select {
		case <-f.Changed():
		case <-ctx.Done():
			t.Fatalf("snapshot never matched: %v; last: %d rows, clusters %+v", ctx.Err(), s.Len(), s.Clusters)
			return nil
		}
	}
}
