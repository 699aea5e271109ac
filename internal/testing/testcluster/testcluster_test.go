package testcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestRolloutOnKwok(t *testing.T) {
	c := Start(t, Options{Controllers: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c.CreateNamespaces("hanzo")

	begin := time.Now()
	if err := c.SeedApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 2); err != nil {
		t.Fatal(err)
	}
	waitDeploymentDone(ctx, t, c, "hanzo", "iam", 2)
	t.Logf("2 replicas available after %s", time.Since(begin).Round(time.Millisecond))

	dep, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if owner := metav1.GetControllerOf(dep); owner == nil || owner.Kind != "App" || owner.Name != "iam" {
		t.Errorf("deployment controller owner = %+v, want App iam", owner)
	}

	// A tag change rolls out through kwok: new pods Ready, old ones deleted.
	patch := `{"spec":{"template":{"metadata":{"labels":{"app.kubernetes.io/version":"v1.2.4"}},` +
		`"spec":{"containers":[{"name":"iam","image":"ghcr.io/hanzoai/iam:v1.2.4"}]}}}}`
	if _, err := c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, "iam", types.StrategicMergePatchType,
		[]byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Kubectl(ctx, "rollout", "status", "deployment/iam", "-n", "hanzo", "--timeout=60s")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "successfully rolled out") {
		t.Errorf("kubectl rollout status = %q", out)
	}
	pods, err := c.AdminClient().CoreV1().Pods("hanzo").List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=iam"})
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range pods.Items {
		if pod.DeletionTimestamp == nil && pod.Spec.Containers[0].Image != "ghcr.io/hanzoai/iam:v1.2.4" {
			t.Errorf("pod %s still runs %s after the rollout", pod.Name, pod.Spec.Containers[0].Image)
		}
	}

	// A datastore role gets a StatefulSet that becomes ready too.
	if err := c.SeedApp(ctx, "hanzo", "pg", "sql", "ghcr.io/hanzoai/sql", "v16.1.0", 1); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "statefulset hanzo/pg ready", func() (bool, error) {
		sts, err := c.AdminClient().AppsV1().StatefulSets("hanzo").Get(ctx, "pg", metav1.GetOptions{})
		return err == nil && sts.Status.ReadyReplicas == 1, err
	})

	out, err = c.Kubectl(ctx, "get", "apps.hanzo.ai", "-n", "hanzo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ROLE", "IMAGE", "iam", "ghcr.io/hanzoai/iam", "sql"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl get apps.hanzo.ai lacks %q:\n%s", want, out)
		}
	}
}

func waitDeploymentDone(ctx context.Context, t *testing.T, c *Cluster, ns, name string, replicas int32) {
	t.Helper()
	waitFor(ctx, t, fmt.Sprintf("deployment %s/%s available", ns, name), func() (bool, error) {
		dep, err := c.AdminClient().AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return dep.Status.ObservedGeneration >= dep.Generation && dep.Status.UpdatedReplicas == replicas &&
			dep.Status.AvailableReplicas == replicas && available(dep), nil
	})
}

func available(dep *appsv1.Deployment) bool {
	for _, cond := range dep.Status.Conditions {
		if cond.Type == appsv1.DeploymentAvailable {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

func waitFor(ctx context.Context, t *testing.T, what string, check func() (bool, error)) {
	t.Helper()
	var lastErr error
	for {
		done, err := check()
		if done {
			return
		}
		lastErr = err
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s (last error: %v)", what, lastErr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func TestAPIServerStopStart(t *testing.T) {
	c := Start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c.CreateNamespaces("hanzo")
	app, err := c.CreateApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1)
	if err != nil {
		t.Fatal(err)
	}
	apps := c.AdminDynamic().Resource(AppsGVR).Namespace("hanzo")

	begin := time.Now()
	c.StopAPIServer()
	t.Logf("API server stopped in %s", time.Since(begin).Round(time.Millisecond))
	if _, err := apps.Get(ctx, "iam", metav1.GetOptions{}); err == nil {
		t.Fatal("the API server still answers after StopAPIServer")
	}
	begin = time.Now()
	c.StartAPIServer()
	t.Logf("API server ready again after %s", time.Since(begin).Round(time.Millisecond))
	got, err := apps.Get(ctx, "iam", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get app after API server restart: %v", err)
	}
	if got.GetUID() != app.GetUID() {
		t.Errorf("app UID changed across the restart: %s → %s", app.GetUID(), got.GetUID())
	}

	begin = time.Now()
	c.RestartEtcd()
	t.Logf("etcd restarted, API server ready in %s", time.Since(begin).Round(time.Millisecond))
	if _, err := apps.Get(ctx, "iam", metav1.GetOptions{}); err != nil {
		t.Fatalf("get app after etcd restart: %v", err)
	}
}
