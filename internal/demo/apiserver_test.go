package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

func testCluster(t *testing.T) *fakeCluster {
	t.Helper()
	return newFakeCluster("t", time.Now, newIdentity(time.Now))
}

func TestAPITrackerVersionsGenerationsAndConflicts(t *testing.T) {
	ctx := context.Background()
	fc := testCluster(t)
	deps := fc.kube.AppsV1().Deployments("ns")
	d, err := deps.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.ResourceVersion == "" || d.UID == "" || d.Generation != 1 || d.CreationTimestamp.IsZero() {
		t.Fatalf("created object lacks server fields: rv=%q uid=%q gen=%d", d.ResourceVersion, d.UID, d.Generation)
	}
	stale := d.DeepCopy()

	d.Status.Replicas = 3 // status only: the generation stays
	d2, err := deps.UpdateStatus(ctx, d, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d2.Generation != 1 || d2.ResourceVersion == d.ResourceVersion {
		t.Errorf("status update: gen %d rv %s→%s, want gen 1 and a new rv", d2.Generation, d.ResourceVersion, d2.ResourceVersion)
	}
	stale.Spec.Paused = true
	if _, err := deps.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with an old resourceVersion: err = %v, want a Conflict", err)
	}
	patch := []byte(`{"spec":{"template":{"metadata":{"annotations":{"hanzo.ai/restartedAt":"now"}}}}}`)
	d3, err := deps.Patch(ctx, "a", types.StrategicMergePatchType, patch, metav1.PatchOptions{FieldManager: "driftboard"})
	if err != nil {
		t.Fatal(err)
	}
	if d3.Generation != 2 || d3.Spec.Template.Annotations["hanzo.ai/restartedAt"] != "now" || d3.Status.Replicas != 3 {
		t.Errorf("after a template patch: gen %d, annotations %v, status %+v", d3.Generation, d3.Spec.Template.Annotations, d3.Status)
	}
	if d3.UID != d.UID || !d3.CreationTimestamp.Equal(&d.CreationTimestamp) {
		t.Errorf("a patch changed server-owned fields: uid %s→%s", d.UID, d3.UID)
	}
}

func TestWatchHonoursFieldSelectors(t *testing.T) {
	ctx := context.Background()
	fc := testCluster(t)
	pods := fc.kube.CoreV1().Pods("ns")
	pending := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Status: corev1.PodStatus{Phase: corev1.PodPending}}
	if _, err := pods.Create(ctx, pending, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	running := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	if _, err := pods.Create(ctx, running, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	opts := metav1.ListOptions{FieldSelector: "status.phase=Pending"}
	list, err := pods.List(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "p" {
		t.Fatalf("list with a field selector: %d items, want only the pending pod", len(list.Items))
	}
	opts.ResourceVersion = list.ResourceVersion
	w, err := pods.Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	p, _ := pods.Get(ctx, "p", metav1.GetOptions{})
	p.Status.Phase = corev1.PodRunning // leaves the selection: seen as deleted
	if _, err := pods.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r, _ := pods.Get(ctx, "r", metav1.GetOptions{})
	r.Status.Phase = corev1.PodPending // enters it: seen as added
	if _, err := pods.UpdateStatus(ctx, r, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < 2 {
		select {
		case ev := <-w.ResultChan():
			got = append(got, string(ev.Type)+" "+ev.Object.(*corev1.Pod).Name)
		case <-time.After(5 * time.Second):
			t.Fatalf("events so far %v, want two", got)
		}
	}
	if want := []string{string(watch.Deleted) + " p", string(watch.Added) + " r"}; !reflect.DeepEqual(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
}

func TestWatchSurvivesBursts(t *testing.T) {
	ctx := context.Background()
	fc := testCluster(t)
	cms := fc.kube.CoreV1().ConfigMaps("ns")
	w, err := cms.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	const n = 500 // the fake's own watch channel holds 100 and then panics
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm%03d", i), Namespace: "ns"}}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		select {
		case <-w.ResultChan():
		case <-time.After(5 * time.Second):
			t.Fatalf("got %d of %d events", i, n)
		}
	}
}

func TestAccessReviewsAndWhoAmI(t *testing.T) {
	ctx := context.Background()
	fc := testCluster(t)
	ssr, err := fc.kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnReview, metav1.CreateOptions{})
	if err != nil || ssr.Status.UserInfo.Username != "oidc:ops@hanzo.ai" {
		t.Fatalf("SelfSubjectReview = %+v, %v", ssr, err)
	}
	for _, tc := range []struct {
		ns, verb string
		allowed  bool
	}{
		{"hanzo", "patch", true}, {"tenant-acme", "patch", true}, {rbacDeniedNamespace, "patch", false}, {rbacDeniedNamespace, "list", true},
	} {
		r, err := fc.kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, accessReview(tc.ns, tc.verb), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status.Allowed != tc.allowed || r.Status.Denied == tc.allowed || r.Status.Reason == "" {
			t.Errorf("%s %s: status %+v, want allowed=%v with a reason", tc.verb, tc.ns, r.Status, tc.allowed)
		}
	}
}

func TestSameSeedSameFleet(t *testing.T) {
	build := func(seed int64) []string {
		ctx := context.Background()
		s := newSim(Options{Seed: seed, Speed: 1, Apps: 60, Now: fixedNow}, newIdentity(fixedNow))
		if err := s.materialize(ctx); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, name := range clusterNames {
			fc := s.clusters[name]
			add := func(obj any) {
				b, err := json.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, name+" "+string(b))
			}
			pods, _ := fc.kube.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
			for _, p := range pods.Items {
				add(p)
			}
			apps, _ := fc.dyn.Resource(appsGVR).Namespace("").List(ctx, metav1.ListOptions{})
			for _, a := range apps.Items {
				add(a.Object)
			}
			deps, _ := fc.kube.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
			for _, d := range deps.Items {
				add(d)
			}
		}
		sort.Strings(out)
		return out
	}
	a, b, c := build(11), build(11), build(12)
	if len(a) < 100 {
		t.Fatalf("only %d objects built", len(a))
	}
	if !reflect.DeepEqual(a, b) {
		for i := range a {
			if i < len(b) && a[i] != b[i] {
				t.Fatalf("seed 11 built two different fleets; first difference:\n%s\n%s", a[i], b[i])
			}
		}
		t.Fatalf("seed 11 built two different fleets (%d vs %d objects)", len(a), len(b))
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 11 and 12 built the same fleet")
	}
}

func fixedNow() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

var authnReview = authnv1.SelfSubjectReview{}

func accessReview(ns, verb string) *authzv1.SelfSubjectAccessReview {
	return &authzv1.SelfSubjectAccessReview{Spec: authzv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authzv1.ResourceAttributes{Namespace: ns, Verb: verb, Group: "apps", Resource: "deployments", Name: "x"}}}
}
