package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

func TestRestartPatchShape(t *testing.T) {
	t.Parallel()
	got := map[string]any{}
	if err := json.Unmarshal(restartPatch("2026-11-30T02:00:00Z", "alice", ""), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{
		"annotations": map[string]any{"hanzo.ai/restartedAt": "2026-11-30T02:00:00Z", "hanzo.ai/restartedBy": "alice"}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("patch (-want +got):\n%s", diff)
	}

	// Applied as the API server does: other annotations and the image stay.
	d := appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"keep": "me", "hanzo.ai/restartedAt": "old"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"}}},
	}}}
	orig, _ := json.Marshal(d)
	patched, err := strategicpatch.StrategicMergePatch(orig, restartPatch("2026-11-30T02:00:00Z", "alice", ""), appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	var out appsv1.Deployment
	if err := json.Unmarshal(patched, &out); err != nil {
		t.Fatal(err)
	}
	wantAnn := map[string]string{"keep": "me", "hanzo.ai/restartedAt": "2026-11-30T02:00:00Z", "hanzo.ai/restartedBy": "alice"}
	if diff := cmp.Diff(wantAnn, out.Spec.Template.Annotations); diff != "" {
		t.Errorf("annotations after patch (-want +got):\n%s", diff)
	}
	if img := out.Spec.Template.Spec.Containers[0].Image; img != "ghcr.io/hanzoai/iam:v1.2.3" {
		t.Errorf("image changed to %s", img)
	}
}

func TestRestartEventShape(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	tg := target{key: model.Key{Cluster: "c", Namespace: "hanzo", Name: "iam"}, kind: model.KindDeployment, who: "alice"}
	ev := restartEvent(tg, "uid-1", RestartResult{By: "alice"}, "hotfix", now)
	if ev.Reason != "Restarted" || ev.Type != corev1.EventTypeNormal || ev.Namespace != "hanzo" {
		t.Errorf("event %+v", ev)
	}
	wantRef := corev1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "hanzo", Name: "iam", UID: "uid-1"}
	if diff := cmp.Diff(wantRef, ev.InvolvedObject); diff != "" {
		t.Errorf("involvedObject (-want +got):\n%s", diff)
	}
	if !strings.Contains(ev.Message, "alice") || !strings.Contains(ev.Message, "hotfix") {
		t.Errorf("message %q lacks who and why", ev.Message)
	}
}

func TestTransformDeploymentTrims(t *testing.T) {
	t.Parallel()
	three := int32(3)
	yes := true
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "iam", Namespace: "hanzo", UID: "d1", ResourceVersion: "9", Generation: 4,
			Annotations:   map[string]string{wire.RevisionAnnotation: "5", "kubectl.kubernetes.io/last-applied-configuration": "{}"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}, Labels: map[string]string{"a": "b"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "hanzo.ai/v1", Kind: "App", Name: "iam", UID: "app1", Controller: &yes}}},
		Spec: appsv1.DeploymentSpec{Replicas: &three, Paused: true, Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{model.RestartedByAnnotation: "bob", "other": "x"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1", Env: []corev1.EnvVar{{Name: "A"}}}}}}},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 4, Replicas: 4, UpdatedReplicas: 2, ReadyReplicas: 3, AvailableReplicas: 3,
			Conditions: []appsv1.DeploymentCondition{{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded"}}},
	}
	obj, err := wire.TransformDeployment(d)
	if err != nil {
		t.Fatal(err)
	}
	e := obj.(*wire.WorkloadEntry)
	if m := e.EntryMeta; m.Name != "iam" || m.Namespace != "hanzo" || m.UID != "d1" || m.ResourceVersion != "9" || m.Annotations != nil {
		t.Errorf("metadata not trimmed to the cache key: %+v", m)
	}
	want := model.Workload{Kind: model.KindDeployment, Name: "iam", UID: "d1", Generation: 4, ObservedGeneration: 4,
		Replicas: &three, ReadyReplicas: 3, UpdatedReplicas: 2, AvailableReplicas: 3, Paused: true,
		Containers:          []model.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1"}},
		TemplateAnnotations: map[string]string{model.RestartedByAnnotation: "bob"},
		Conditions:          []model.Condition{{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded"}}}
	if diff := cmp.Diff(want, e.W); diff != "" {
		t.Errorf("workload (-want +got):\n%s", diff)
	}
	if e.OwnerUID != "app1" || e.Revision != "5" || e.StatusReplicas != 4 || e.ResourceVersion != "9" {
		t.Errorf("entry %+v", e)
	}
	if again, _ := wire.TransformDeployment(e); again != e {
		t.Errorf("transform is not idempotent on entries")
	}
}

func TestTransformPodKeepsWhyItFails(t *testing.T) {
	t.Parallel()
	yes := true
	owner := []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "iam-7d9f", UID: "rs1", Controller: &yes}}
	waiting := func(reason, msg string) corev1.ContainerState {
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}
	}
	oomLast := corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}
	tests := []struct {
		name   string
		status corev1.PodStatus
		gone   bool
		want   []model.PodFailure
	}{
		{"pending, image pull", corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "iam", State: waiting("ImagePullBackOff", "pull ghcr.io/x:v9")}}},
			false, []model.PodFailure{{Pod: "iam-7d9f-x", Reason: "ImagePullBackOff", Message: "pull ghcr.io/x:v9"}}},
		{"running, crash loop", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "iam", State: waiting("CrashLoopBackOff", "back-off 40s")}}},
			false, []model.PodFailure{{Pod: "iam-7d9f-x", Reason: "CrashLoopBackOff", Message: "back-off 40s"}}},
		{"running, OOM-killed last", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "iam", State: waiting("CrashLoopBackOff", "back-off"), LastTerminationState: oomLast}}},
			false, []model.PodFailure{{Pod: "iam-7d9f-x", Reason: "OOMKilled", Message: "container iam was killed for memory"}}},
		{"unschedulable", corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "0/1 nodes"}}},
			false, []model.PodFailure{{Pod: "iam-7d9f-x", Reason: "Unschedulable", Message: "0/1 nodes"}}},
		{"starting", corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "iam", State: waiting("ContainerCreating", "")}}}, false, nil},
		{"terminating", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "iam", State: waiting("CrashLoopBackOff", "")}}}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "iam-7d9f-x", Namespace: "hanzo", OwnerReferences: owner}, Status: tt.status}
			if tt.gone {
				now := metav1.Now()
				p.DeletionTimestamp = &now
			}
			obj, _ := wire.TransformPod(p)
			e := obj.(*wire.PodEntry)
			if e.OwnerKind != "ReplicaSet" || e.OwnerUID != "rs1" {
				t.Errorf("owner %s %s", e.OwnerKind, e.OwnerUID)
			}
			if diff := cmp.Diff(tt.want, e.Failures); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

// API errors are shortened for people but keep their cause for callers.
func TestAPIErrKeepsTheCause(t *testing.T) {
	t.Parallel()
	cause := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New(strings.Repeat("x", 2000)))
	err := fmt.Errorf("list pods of iam: %w", apiErr(cause))
	if !apierrors.IsForbidden(err) || !errors.Is(err, cause) {
		t.Errorf("the cause is lost: %v", err)
	}
	if len(err.Error()) > 1000 || !strings.Contains(err.Error(), "list pods of iam: forbidden: ") {
		t.Errorf("text not shortened (%d bytes): %.120s", len(err.Error()), err)
	}
}

// replaced reads the Invalid status's cause (field and type), not its words.
func TestReplacedReadsTheUIDCause(t *testing.T) {
	t.Parallel()
	gk := schema.GroupKind{Group: "apps", Kind: "Deployment"}
	uid := field.NewPath("metadata", "uid")
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"uid immutable", apierrors.NewInvalid(gk, "iam", field.ErrorList{field.Invalid(uid, "5cdd", "field is immutable")}), true},
		{"another field, naming metadata.uid", apierrors.NewInvalid(gk, "iam",
			field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), -1, "not metadata.uid")}), false},
		{"uid required, not invalid", apierrors.NewInvalid(gk, "iam", field.ErrorList{field.Required(uid, "")}), false},
		{"conflict naming the UID", apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, "iam",
			errors.New("Precondition failed: UID in precondition: a, UID in object meta: b")), false},
		{"not an API error", errors.New("metadata.uid: Invalid value"), false},
		{"none", nil, false},
	} {
		if got := replaced(tc.err); got != tc.want {
			t.Errorf("%s: replaced = %v, want %v", tc.name, got, tc.want)
		}
	}
}
