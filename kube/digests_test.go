package kube

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

func digestOf(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }

func fakeApp(name, role, uid string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "App",
		"metadata": map[string]any{"name": name, "namespace": "hanzo", "uid": uid},
		"spec": map[string]any{"role": role,
			"image": map[string]any{"repository": "ghcr.io/hanzoai/" + name, "tag": "main"}},
	}}
}

// fakePod is a pod matching sel, controlled by (kind, uid) when kind != "",
// whose containers report imageIDs (name → imageID, in spec order).
func fakePod(name string, sel map[string]string, kind, uid string, phase corev1.PodPhase, cs ...[3]string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "hanzo", Labels: sel}, Status: corev1.PodStatus{Phase: phase}}
	if kind != "" {
		yes := true
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: "owner", UID: types.UID(uid), Controller: &yes}}
	}
	for _, c := range cs { // name, image, imageID
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c[0], Image: c[1]})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: c[0], Image: c[1], ImageID: c[2]})
	}
	return p
}

// The selector alone is not trusted: pods count only when their controller
// is one of the Deployment's ReplicaSets (or the StatefulSet, by UID); the
// App's container is picked by repository; local image IDs and finished
// pods are left out.
func TestRunningDigestsFiltersByOwner(t *testing.T) {
	t.Parallel()
	yes := true
	sel := map[string]string{"app.kubernetes.io/name": "web"}
	dbSel := map[string]string{"app.kubernetes.io/name": "db"}
	one := int32(1)
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "hanzo", UID: "d1"},
		Spec: appsv1.DeploymentSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "ghcr.io/hanzoai/web:main"}}}}},
	}
	rs := func(name, uid, owner, ownerUID string) *appsv1.ReplicaSet {
		return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "hanzo", UID: types.UID(uid),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: owner, UID: types.UID(ownerUID), Controller: &yes}}},
			Status: appsv1.ReplicaSetStatus{Replicas: 1}}
	}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "hanzo", UID: "s1"},
		Spec:       appsv1.StatefulSetSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: dbSel}},
	}
	web := "ghcr.io/hanzoai/web:main"
	objs := []runtime.Object{dep, sts,
		rs("web-old", "r1", "web", "d1"), rs("web-new", "r2", "web", "d1"), rs("other-1", "r9", "other", "d9"),
		// The App's container is second here: a sidecar comes first.
		fakePod("web-old-a", sel, "ReplicaSet", "r1", corev1.PodRunning,
			[3]string{"proxy", "envoyproxy/envoy:v1", "docker.io/envoyproxy/envoy@" + digestOf('f')},
			[3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('a')}),
		fakePod("web-new-b", sel, "ReplicaSet", "r2", corev1.PodRunning, [3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('b')}),
		fakePod("web-new-b2", sel, "ReplicaSet", "r2", corev1.PodRunning, [3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('b')}),
		fakePod("web-new-c", sel, "ReplicaSet", "r2", corev1.PodPending, [3]string{"web", web, ""}),
		fakePod("web-local", sel, "ReplicaSet", "r2", corev1.PodRunning, [3]string{"web", web, digestOf('e')}),
		fakePod("web-done", sel, "ReplicaSet", "r2", corev1.PodSucceeded, [3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('9')}),
		fakePod("stray", sel, "", "", corev1.PodRunning, [3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('c')}),
		fakePod("other-x", sel, "ReplicaSet", "r9", corev1.PodRunning, [3]string{"web", web, "ghcr.io/hanzoai/web@" + digestOf('d')}),
		fakePod("db-0", dbSel, "StatefulSet", "s1", corev1.PodRunning, [3]string{"db", "ghcr.io/hanzoai/db:main", "ghcr.io/hanzoai/db@" + digestOf('1')}),
		fakePod("db-1", dbSel, "StatefulSet", "s0", corev1.PodRunning, [3]string{"db", "ghcr.io/hanzoai/db:main", "ghcr.io/hanzoai/db@" + digestOf('2')}),
	}
	dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{appsGVR: "AppList", cd.CRDs: "CustomResourceDefinitionList"},
		fakeApp("web", "spa", "a1"), fakeApp("db", "sql", "a2"), fakeApp("gone", "spa", "a3"), fakeApp("edge", "ingress", "a4"))
	f := NewFleet(FleetOptions{}, ClusterClients{Name: "demo", Kube: fake.NewClientset(objs...), Dynamic: dyn})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f.Start(ctx)
	if err := f.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	k := func(name string) model.Key { return model.Key{Cluster: "demo", Namespace: "hanzo", Name: name} }

	got, err := f.RunningDigests(ctx, k("web"))
	if want := []string{digestOf('a'), digestOf('b')}; err != nil || !slices.Equal(got.Digests, want) {
		t.Errorf("web: %+v, %v; want %q", got, err, want)
	}
	got, err = f.RunningDigests(ctx, k("db"))
	if want := []string{digestOf('1')}; err != nil || !slices.Equal(got.Digests, want) {
		t.Errorf("db: %+v, %v; want %q", got, err, want)
	}
	if _, err := f.RunningDigests(ctx, k("gone")); !errors.Is(err, ErrNoWorkload) || !strings.Contains(err.Error(), "Deployment hanzo/gone does not exist") {
		t.Errorf("missing workload: %v", err)
	}
	if _, err := f.RunningDigests(ctx, k("edge")); !errors.Is(err, ErrNoWorkload) || !strings.Contains(err.Error(), "makes no workload") {
		t.Errorf("ingress: %v", err)
	}
	if _, err := f.RunningDigests(ctx, k("nope")); err == nil || !strings.Contains(err.Error(), "not on cluster demo") {
		t.Errorf("unknown app: %v", err)
	}
	if _, err := f.RunningDigests(ctx, model.Key{Cluster: "x", Namespace: "hanzo", Name: "web"}); err == nil || !strings.Contains(err.Error(), `cluster "x"`) {
		t.Errorf("unknown cluster: %v", err)
	}
}

func TestSelectorString(t *testing.T) {
	t.Parallel()
	if s := wire.SelectorString(nil); s != "" {
		t.Errorf("nil: %q", s)
	}
	if s := wire.SelectorString(&metav1.LabelSelector{}); s != "" {
		t.Errorf("empty selects everything, must not be used: %q", s)
	}
	s := wire.SelectorString(&metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "c", Operator: metav1.LabelSelectorOpIn, Values: []string{"d"}}}})
	if s != "a=b,c in (d)" {
		t.Errorf("selector %q", s)
	}
}
