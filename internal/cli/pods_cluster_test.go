package cli

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// One-shot commands name a rollout's crash-looping pod: list (table and
// JSON) and get, through the pod watch the first snapshot starts (the
// command waits for it to list before it prints). The new pod sits on a
// node nothing manages; the test writes its status as a kubelet would.
func TestListAndGetNameFailingPods(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "api", "service", "ghcr.io/hanzoai/api", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	waitReady(ctx, t, c, "hanzo", "api")
	admin := c.AdminClient()
	if _, err := admin.AppsV1().Deployments("hanzo").Patch(ctx, "api", types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"nodeName":"elsewhere"}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	var pod string
	for pod == "" && ctx.Err() == nil {
		list, err := admin.CoreV1().Pods("hanzo").List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=api"})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list.Items {
			if p.Spec.NodeName == "elsewhere" {
				pod = p.Name
			}
		}
		if pod == "" {
			time.Sleep(100 * time.Millisecond) // the controller creates it
		}
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := admin.CoreV1().Pods("hanzo").Get(ctx, pod, metav1.GetOptions{})
		if err != nil {
			return err
		}
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: p.Spec.Containers[0].Name, Image: p.Spec.Containers[0].Image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 10s"}}}}
		_, err = admin.CoreV1().Pods("hanzo").UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("set pod status: %v", err)
	}

	e := newEnv(t)
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }
	if r := run("list"); !strings.Contains(r.out, "!CrashLoopBackOff:"+pod) {
		t.Errorf("list does not name the crash-looping pod %s:\n%s\n%s", pod, r.out, r.err)
	}
	r := run("list", "-o", "json")
	var doc struct {
		Apps []model.AppView `json:"apps"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Apps) != 1 {
		t.Fatalf("list -o json: %v\n%s", err, r.out)
	}
	if !slices.ContainsFunc(doc.Apps[0].Problems, func(p model.Problem) bool {
		return p.Kind == model.ProblemPodsFailing && p.Reason == "CrashLoopBackOff" && slices.Equal(p.Pods, []string{pod})
	}) {
		t.Errorf("list -o json lacks the pods-failing problem naming %s: %+v", pod, doc.Apps[0].Problems)
	}
	if r := run("get", "api", "--env", "main"); !strings.Contains(r.out, "CrashLoopBackOff: "+pod+" — back-off 10s") {
		t.Errorf("get does not name the crash-looping pod %s:\n%s\n%s", pod, r.out, r.err)
	}
}
