package kube

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A rollout whose new pod crash-loops is named on the row within 30 s,
// through a pod watch scoped to that workload; a healthy fleet watches no
// pods, and no request lists or watches pods beyond one workload's selector.
// The new pod sits on a node neither a kubelet nor kwok manages, so the
// test writes its status as a kubelet would (status subresource).
func TestLivePodWatchNamesFailingPods(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "api", "service", "v1.0.0", 2)
	seed(t, c, "hanzo", "web", "service", "v1.0.0", 1)
	admin := c.AdminClient()
	// Settled before the fleet starts, so it never sees a rollout here.
	deploymentsSettled(t, admin, "api", "web")
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	for _, name := range []string{"api", "web"} {
		waitRow(t, f, key("hanzo", name), "settled", healthy)
	}
	if run, wait := f.PodWatches(); run != 0 || wait != 0 {
		t.Fatalf("healthy fleet: %d pod watches, %d waiting; want none", run, wait)
	}
	assertPodRequests(t, c, false)

	// Roll api onto a node nothing runs: its new pod stays as we set it.
	ctx := ctxT(t)
	_, err := admin.AppsV1().Deployments("hanzo").Patch(ctx, "api", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"nodeName":"elsewhere"}}}}`), metav1.PatchOptions{})
	must(t, err)
	pod := newPodOn(t, admin, "app.kubernetes.io/name=api", "elsewhere")
	setPodStatus(t, admin, pod, crashLooping)
	set := time.Now()
	want := "CrashLoopBackOff: " + pod
	row := waitRowWithin(t, f, key("hanzo", "api"), 30*time.Second, func(r *model.AppView) bool {
		for _, p := range r.Problems {
			if p.Kind == model.ProblemPodsFailing && p.Label() == want {
				return true
			}
		}
		return false
	})
	t.Logf("named %q %.1fs after its status was set", want, time.Since(set).Seconds())
	if row.Workload.Rollout != model.RolloutStuck || !strings.Contains(row.Workload.Message, want) {
		t.Errorf("rollout %s %q: want stuck, naming the pod", row.Workload.Rollout, row.Workload.Message)
	}
	if run, _ := f.PodWatches(); run != 1 {
		t.Errorf("one workload rolls out: %d pod watches", run)
	}
	assertPodRequests(t, c, true)

	// The pod recovers: the problem goes; as the new pods turn ready the
	// rollout completes and the watch stops.
	setPodStatus(t, admin, pod, readyStatus)
	waitRowWithin(t, f, key("hanzo", "api"), 30*time.Second, func(r *model.AppView) bool {
		return !r.HasProblem(model.ProblemPodsFailing)
	})
	waitRowWithin(t, f, key("hanzo", "api"), 60*time.Second, func(r *model.AppView) bool {
		makeReady(t, admin, "app.kubernetes.io/name=api", "elsewhere") // the surge brings more new pods
		return healthy(r)
	})
	if run, wait := f.PodWatches(); run != 0 || wait != 0 {
		t.Errorf("healthy again: %d pod watches, %d waiting; want none", run, wait)
	}
}

func healthy(r *model.AppView) bool {
	return r != nil && r.Workload.Rollout == model.RolloutComplete && r.Health == model.HealthGreen
}

// crashLooping is what a kubelet reports of a container in a crash loop.
func crashLooping(st *corev1.PodStatus, p *corev1.Pod) {
	st.Phase = corev1.PodRunning
	st.ContainerStatuses = []corev1.ContainerStatus{{Name: p.Spec.Containers[0].Name, Image: p.Spec.Containers[0].Image,
		RestartCount: 4, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
			Reason: "CrashLoopBackOff", Message: "back-off 1m20s restarting failed container"}}}}
}

// readyStatus is a running, ready pod.
func readyStatus(st *corev1.PodStatus, p *corev1.Pod) {
	st.Phase = corev1.PodRunning
	st.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}
	st.ContainerStatuses = []corev1.ContainerStatus{{Name: p.Spec.Containers[0].Name, Image: p.Spec.Containers[0].Image, Ready: true,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}}}
}

// waitRowWithin waits up to d for the row to match.
func waitRowWithin(t *testing.T, f *Fleet, k model.Key, d time.Duration, ok func(*model.AppView) bool) *model.AppView {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		row := findRow(f.Snapshot(), k)
		if row != nil && ok(row) {
			return row
		}
		select {
		case <-f.Changed():
		case <-ctx.Done():
			if row == nil {
				t.Fatalf("row %s absent after %s", k, d)
			}
			t.Fatalf("row %s did not match within %s; rollout %s %q, problems %q", k, d, row.Workload.Rollout, row.Workload.Message, row.Problems)
		}
	}
}

// assertPodRequests checks what the fleet (user agent "driftboard") asked
// of pods: never a watch or a full list across namespaces or without a
// selector (only the one-item access probe), and watches only when some
// workload rolls out.
func assertPodRequests(t *testing.T, c *testcluster.Cluster, wantWatch bool) {
	t.Helper()
	events, err := c.AuditEvents()
	must(t, err)
	watches := 0
	seen := map[string]int{}
	defer func() { t.Logf("pods requests so far: %v", seen) }()
	for _, ev := range events {
		if ev.UserAgent != "driftboard" || ev.ObjectRef == nil || ev.ObjectRef.Resource != "pods" || ev.Stage != "ResponseComplete" && ev.Stage != "ResponseStarted" {
			continue
		}
		uri := ev.RequestURI
		if ev.Stage == "ResponseComplete" || ev.Verb == "watch" && ev.Stage == "ResponseStarted" {
			seen[ev.Verb+" "+strings.SplitN(uri, "?", 2)[0]]++
		}
		switch {
		case ev.Verb == "list" && strings.Contains(uri, "limit=1") && !strings.Contains(uri, "watch="):
			// the access probe: one item, not cached
		case (ev.Verb == "list" || ev.Verb == "watch") && ev.ObjectRef.Namespace == "hanzo" && strings.Contains(uri, "labelSelector="):
			if ev.Verb == "watch" {
				watches++
			}
		default:
			t.Errorf("pods request beyond one workload's selector: %s %s", ev.Verb, uri)
		}
	}
	if wantWatch != (watches > 0) {
		t.Errorf("pod watches seen in the audit log: %d (want some: %v)", watches, wantWatch)
	}
}

// newPodOn waits for a pod matching sel bound to node, and names it.
func newPodOn(t *testing.T, cs kubernetes.Interface, sel, node string) string {
	t.Helper()
	ctx := ctxT(t)
	name := ""
	err := pollUntil(ctx, func() bool {
		list, err := cs.CoreV1().Pods("hanzo").List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil {
			return false
		}
		for _, p := range list.Items {
			if p.Spec.NodeName == node {
				name = p.Name
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("no pod %s on node %s: %v", sel, node, err)
	}
	return name
}

// makeReady sets every not yet ready pod matching sel on node ready.
func makeReady(t *testing.T, cs kubernetes.Interface, sel, node string) {
	t.Helper()
	list, err := cs.CoreV1().Pods("hanzo").List(ctxT(t), metav1.ListOptions{LabelSelector: sel})
	must(t, err)
	for _, p := range list.Items {
		if p.Spec.NodeName == node && p.Status.Phase != corev1.PodRunning && p.DeletionTimestamp == nil {
			setPodStatus(t, cs, p.Name, readyStatus)
		}
	}
}

// deploymentsSettled waits until each Deployment's status says rolled out and ready.
func deploymentsSettled(t *testing.T, cs kubernetes.Interface, names ...string) {
	t.Helper()
	ctx := ctxT(t)
	for _, name := range names {
		err := pollUntil(ctx, func() bool {
			d, err := cs.AppsV1().Deployments("hanzo").Get(ctx, name, metav1.GetOptions{})
			if err != nil || d.Spec.Replicas == nil {
				return false
			}
			n, st := *d.Spec.Replicas, d.Status
			return st.ObservedGeneration == d.Generation && st.Replicas == n && st.UpdatedReplicas == n && st.ReadyReplicas == n && st.AvailableReplicas == n
		})
		if err != nil {
			t.Fatalf("deployment %s never settled: %v", name, err)
		}
	}
}

// setPodStatus writes a pod's status as a kubelet would.
func setPodStatus(t *testing.T, cs kubernetes.Interface, pod string, edit func(*corev1.PodStatus, *corev1.Pod)) {
	t.Helper()
	ctx := ctxT(t)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := cs.CoreV1().Pods("hanzo").Get(ctx, pod, metav1.GetOptions{})
		if err != nil {
			return err
		}
		edit(&p.Status, p)
		_, err = cs.CoreV1().Pods("hanzo").UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("set status of pod %s: %v", pod, err)
	}
}
