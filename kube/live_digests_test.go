package kube

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// On a real API server with kwok pods: kwok reports no imageID (its stages
// template none), so the test writes what a kubelet would through the
// status subresource. A stray pod carrying the Deployment's labels but no
// owner, and pods of an unrelated StatefulSet revision, are not counted.
func TestLiveRunningDigests(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "main", 2)
	seed(t, c, "hanzo", "db", "sql", "main", 1)
	_, err := c.CreateApp(ctxT(t), "hanzo", "orphan", "", "ghcr.io/hanzoai/orphan", "main", 1)
	must(t, err)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	ctx := ctxT(t)
	for _, name := range []string{"iam", "db"} {
		waitRow(t, f, key("hanzo", name), "settled", func(r *model.AppView) bool {
			return r != nil && r.Workload.Rollout == model.RolloutComplete && r.Health == model.HealthGreen
		})
	}
	admin := c.AdminClient()
	iamPods := runningPods(t, admin, "app.kubernetes.io/name=iam", 2)
	dbPods := runningPods(t, admin, "app.kubernetes.io/name=db", 1)

	// As kwok leaves them: no imageID, so no digest to compare, and the
	// answer says two pods reported none (not "no pods").
	got, err := f.RunningDigests(ctx, key("hanzo", "iam"))
	if err != nil || len(got.Digests) != 0 || got.Pods != 2 || got.NoDigest != 2 {
		t.Fatalf("before imageIDs: %+v, %v; want 2 pods, both without a digest", got, err)
	}

	setImageID(t, admin, iamPods[0], "ghcr.io/hanzoai/iam@"+digestOf('a'))
	setImageID(t, admin, iamPods[1], "ghcr.io/hanzoai/iam@"+digestOf('b'))
	setImageID(t, admin, dbPods[0], "ghcr.io/hanzoai/db@"+digestOf('1'))
	// A stray: the Deployment's selector labels, no controller, on a node
	// no kubelet (and no kwok) manages, reporting another digest.
	stray := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "stray", Namespace: "hanzo",
			Labels: map[string]string{"app.kubernetes.io/name": "iam", "app.kubernetes.io/instance": "iam"}},
		Spec: corev1.PodSpec{NodeName: "elsewhere", Containers: []corev1.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:main"}}},
	}
	_, err = admin.CoreV1().Pods("hanzo").Create(ctx, stray, metav1.CreateOptions{})
	must(t, err)
	setImageID(t, admin, "stray", "ghcr.io/hanzoai/iam@"+digestOf('c'))

	got, err = f.RunningDigests(ctx, key("hanzo", "iam"))
	if want := []string{digestOf('a'), digestOf('b')}; err != nil || !slices.Equal(got.Digests, want) || got.Pods != 2 || got.NoDigest != 0 {
		t.Errorf("iam: %+v, %v; want %q of 2 pods (the stray excluded)", got, err, want)
	}
	got, err = f.RunningDigests(ctx, key("hanzo", "db"))
	if want := []string{digestOf('1')}; err != nil || !slices.Equal(got.Digests, want) {
		t.Errorf("db: %+v, %v; want %q", got, err, want)
	}
	if note := model.CheckDigests(digestOf('b'), prefixed(got.Digests)).Note(); !strings.Contains(note, "running digest ≠ tag digest") {
		t.Errorf("note for a moved tag: %q", note)
	}
	if _, err := f.RunningDigests(ctx, key("hanzo", "orphan")); !errors.Is(err, ErrNoWorkload) ||
		!strings.Contains(err.Error(), "Deployment hanzo/orphan does not exist") {
		t.Errorf("missing workload: %v", err)
	}

	// Scaled to zero: the read says there are no pods, not that pods
	// reported no digest.
	_, err = admin.AppsV1().StatefulSets("hanzo").Patch(ctx, "db", types.MergePatchType, []byte(`{"spec":{"replicas":0}}`), metav1.PatchOptions{})
	must(t, err)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		got, err = f.RunningDigests(ctx, key("hanzo", "db"))
		if err == nil && got.Pods == 0 {
			if got.NoDigest != 0 || len(got.Digests) != 0 || got.Note() != "no pods (none running or pending)" {
				t.Errorf("db scaled to zero: %+v, note %q", got, got.Note())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("db scaled to zero: still %+v, %v after 30 s", got, err)
		}
	}

	// A user who may read the board's kinds but not pods: a clear refusal.
	role := rbacRole("hanzo")
	role.Name = "board-nopods"
	role.Rules = slices.DeleteFunc(role.Rules, func(r rbacv1.PolicyRule) bool { return slices.Contains(r.Resources, "pods") })
	_, err = admin.RbacV1().Roles("hanzo").Create(ctx, role, metav1.CreateOptions{})
	must(t, err)
	b := rbacBinding("hanzo", "erin")
	b.RoleRef.Name = role.Name
	_, err = admin.RbacV1().RoleBindings("hanzo").Create(ctx, b, metav1.CreateOptions{})
	must(t, err)
	fu := startFleet(t, c.UserConfig("erin"), FleetOptions{})
	waitRow(t, fu, key("hanzo", "iam"), "visible to erin", func(r *model.AppView) bool { return r != nil })
	_, err = fu.RunningDigests(ctx, key("hanzo", "iam"))
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "erin may not list pods in namespace hanzo") || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("without pod access: %v", err)
	}
}

// prefixed turns bare digests back into references CheckDigests compares.
func prefixed(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = "@" + d
	}
	return out
}

// runningPods waits until n pods match sel and are Running, and names them.
func runningPods(t *testing.T, cs kubernetes.Interface, sel string, n int) []string {
	t.Helper()
	ctx := ctxT(t)
	var names []string
	err := pollUntil(ctx, func() bool {
		list, err := cs.CoreV1().Pods("hanzo").List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil {
			return false
		}
		names = names[:0]
		for _, p := range list.Items {
			if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
				names = append(names, p.Name)
			}
		}
		return len(names) == n
	})
	if err != nil {
		t.Fatalf("pods %s: want %d running, have %q: %v", sel, n, names, err)
	}
	slices.Sort(names)
	return names
}

// setImageID writes a Running status whose containers report imageID.
func setImageID(t *testing.T, cs kubernetes.Interface, pod, imageID string) {
	t.Helper()
	ctx := ctxT(t)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := cs.CoreV1().Pods("hanzo").Get(ctx, pod, metav1.GetOptions{})
		if err != nil {
			return err
		}
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = nil
		for _, c := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: c.Name, Image: c.Image, ImageID: imageID, Ready: true,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
			})
		}
		_, err = cs.CoreV1().Pods("hanzo").UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("set imageID of pod %s: %v", pod, err)
	}
}

func pollUntil(ctx context.Context, ok func() bool) error {
	for !ok() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}
