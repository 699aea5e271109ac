package kube

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// benchFleet is a Fleet whose caches are filled by hand with n Apps, their
// Deployments and two ReplicaSets each (a rollout in progress everywhere).
func benchFleet(b testing.TB, n int) (*Fleet, []model.Key) {
	b.Helper()
	now := time.Unix(1_800_000_000, 0)
	f := NewFleet(FleetOptions{Now: func() time.Time { return now }}, ClusterClients{Name: "bench"})
	c := f.clusters[0]
	s := &scope{inf: map[string]cache.SharedIndexInformer{}}
	for what, idx := range map[string]cache.Indexers{"apps": nil, "deployments": nil, "replicasets": ownerIndex(replicaSetKey)} {
		s.inf[what] = cache.NewSharedIndexInformer(&cache.ListWatch{}, &appsv1.Deployment{}, 0, idx)
	}
	keys := make([]model.Key, n)
	yes := true
	two := int32(2)
	for i := range n {
		ns, name := fmt.Sprintf("hanzo-%02d", i%50), fmt.Sprintf("svc-%05d", i)
		keys[i] = model.Key{Cluster: "bench", Namespace: ns, Name: name}
		u := decodeJSON(b, fmt.Sprintf(`{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":%q,"namespace":%q,"uid":"u%d","resourceVersion":"1"},
			"spec":{"role":"service","replicas":2,"image":{"repository":"ghcr.io/hanzoai/%s","tag":"v1.2.%d"}},
			"status":{"phase":"Running","readyReplicas":2,"conditions":[{"type":"Ready","status":"True","reason":"Available"}]}}`,
			name, ns, i, name, i%7))
		add := func(inf string, obj any, transform func(any) (any, error)) {
			e, err := transform(obj)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.inf[inf].GetIndexer().Add(e); err != nil {
				b.Fatal(err)
			}
		}
		add("apps", u, wire.TransformApp("bench"))
		meta := metav1.ObjectMeta{Name: name, Namespace: ns, UID: "d", ResourceVersion: "1",
			Annotations:     map[string]string{wire.RevisionAnnotation: "2"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "hanzo.ai/v1", Kind: "App", Name: name, UID: u.GetUID(), Controller: &yes}}}
		tmpl := func(tag string) corev1.PodTemplateSpec {
			return corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "ghcr.io/hanzoai/" + name + ":" + tag}}}}
		}
		add("deployments", &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: &two, Template: tmpl("v1.2.9")},
			Status: appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 1, ReadyReplicas: 2, AvailableReplicas: 2}}, wire.TransformDeployment)
		for rev, tag := range map[string]string{"1": "v1.2.8", "2": "v1.2.9"} {
			rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name + "-" + rev, Namespace: ns, ResourceVersion: "1",
				Annotations:     map[string]string{wire.RevisionAnnotation: rev},
				OwnerReferences: []metav1.OwnerReference{{Kind: "Deployment", Name: name, Controller: &yes}}},
				Spec: appsv1.ReplicaSetSpec{Template: tmpl(tag)}, Status: appsv1.ReplicaSetStatus{Replicas: 1, AvailableReplicas: 1}}
			add("replicasets", rs, wire.TransformReplicaSet)
		}
	}
	c.scopes = map[string]*scope{"": s}
	c.synced = true
	return f, keys
}

// BenchmarkRebuild10000DirtyRows: every row changed since the last snapshot.
func BenchmarkRebuild10000DirtyRows(b *testing.B) {
	f, keys := benchFleet(b, 10_000)
	f.Snapshot()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, k := range keys {
			f.markDirty(k)
		}
		if s := f.Snapshot(); s.Len() != len(keys) {
			b.Fatalf("%d rows", s.Len())
		}
	}
}

// BenchmarkRebuildOneDirtyRow: the steady state, one event between frames.
func BenchmarkRebuildOneDirtyRow(b *testing.B) {
	f, keys := benchFleet(b, 10_000)
	f.Snapshot()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f.markDirty(keys[i%len(keys)])
		f.Snapshot()
	}
}

// BenchmarkChurnOneApp: the board under churn, one App's tag changed (a
// new entry in the cache, as its watch event leaves it) between snapshots.
func BenchmarkChurnOneApp(b *testing.B) {
	f, keys := benchFleet(b, 10_000)
	f.markDirtyKeys(keys)
	f.Snapshot()
	apps := f.clusters[0].scopes[""].inf["apps"].GetIndexer()
	entries := make([]*wire.AppEntry, len(keys))
	for i, k := range keys {
		obj, _, _ := apps.GetByKey(k.Namespace + "/" + k.Name)
		entries[i] = obj.(*wire.AppEntry)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e := *entries[i%len(entries)]
		e.App.ImageTag = fmt.Sprintf("v2.%d.%d", i/len(entries), i%1000)
		if err := apps.Update(&e); err != nil {
			b.Fatal(err)
		}
		f.markDirty(keys[i%len(keys)])
		if s := f.Snapshot(); s.Len() != len(keys) {
			b.Fatalf("%d rows", s.Len())
		}
	}
}
