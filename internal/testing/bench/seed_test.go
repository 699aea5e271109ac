package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// benchNamespaces are the 50 namespaces Apps are spread across: the four
// platform ones and tenants, so rows get env and tenant like a real fleet.
func benchNamespaces() []string {
	nss := []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet"}
	for i := len(nss); i < 50; i++ {
		nss = append(nss, fmt.Sprintf("tenant-org%02d", i))
	}
	return nss
}

func appName(i int) string { return fmt.Sprintf("svc-%05d", i) }

// appSpec is a realistic App spec of about 1.5 KB: image, ports, env,
// resources, probes, ingress.
func appSpec(name string) map[string]any {
	env := make([]any, 0, 12)
	for i := range 12 {
		env = append(env, map[string]any{"name": fmt.Sprintf("SETTING_%02d", i), "value": fmt.Sprintf("%s-value-%02d-abcdefghijklmnop", name, i)})
	}
	probe := func(path string) map[string]any {
		return map[string]any{"httpGet": map[string]any{"path": path, "port": int64(8080)},
			"initialDelaySeconds": int64(5), "periodSeconds": int64(10), "failureThreshold": int64(3)}
	}
	return map[string]any{
		"role":     "service",
		"replicas": int64(2),
		"image":    map[string]any{"repository": "ghcr.io/hanzoai/" + name, "tag": "v1.2.3", "pullPolicy": "IfNotPresent"},
		"ports": []any{
			map[string]any{"name": "http", "containerPort": int64(8080), "protocol": "TCP"},
			map[string]any{"name": "metrics", "containerPort": int64(9090), "protocol": "TCP"},
		},
		"env": env,
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
			"limits":   map[string]any{"cpu": "1", "memory": "512Mi"},
		},
		"probes": map[string]any{"liveness": probe("/healthz"), "readiness": probe("/readyz")},
		"ingress": map[string]any{"enabled": true, "host": name + ".hanzo.ai", "path": "/", "tls": true,
			"annotations": map[string]any{"nginx.ingress.kubernetes.io/proxy-body-size": "16m"}},
	}
}

func appStatus(name string) map[string]any {
	return map[string]any{
		"phase": "Running", "readyReplicas": int64(2), "availableReplicas": int64(2), "observedGeneration": int64(1),
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "AllReplicasReady", "message": "2/2 replicas ready"}},
		"endpoints":  []any{"https://" + name + ".hanzo.ai"},
	}
}

// appSpecBytes is the JSON size of one seeded App spec, for the report.
func appSpecBytes() int {
	b, _ := json.Marshal(appSpec(appName(0)))
	return len(b)
}

// deployment is the operator's Deployment for app with the App's container
// details, so its size is realistic too.
func deployment(app *unstructured.Unstructured) *appsv1.Deployment {
	d := testcluster.OperatorDeployment(app)
	c := &d.Spec.Template.Spec.Containers[0]
	c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}, {Name: "metrics", ContainerPort: 9090}}
	for i := range 12 {
		c.Env = append(c.Env, corev1.EnvVar{Name: fmt.Sprintf("SETTING_%02d", i), Value: fmt.Sprintf("%s-value-%02d-abcdefghijklmnop", app.GetName(), i)})
	}
	c.Resources = corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
	}
	probe := func(path string) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(8080)}},
			InitialDelaySeconds: 5, PeriodSeconds: 10, FailureThreshold: 3}
	}
	c.LivenessProbe, c.ReadinessProbe = probe("/healthz"), probe("/readyz")
	return d
}

func readyStatus(d *appsv1.Deployment) appsv1.DeploymentStatus {
	return appsv1.DeploymentStatus{
		ObservedGeneration: d.Generation, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable", Message: "ReplicaSet has successfully progressed."},
		},
	}
}

// seedFleet creates n Apps (spec and status) and their ready Deployments
// across nss with a fast client, 48 objects at a time. No controllers run:
// statuses are written directly.
func seedFleet(tb testing.TB, c *testcluster.Cluster, nss []string, n int) {
	tb.Helper()
	seedRange(tb, c, nss, 0, n)
}

// seedRange seeds Apps number from to to-1 (names svc-<from>…).
func seedRange(tb testing.TB, c *testcluster.Cluster, nss []string, from, to int) {
	tb.Helper()
	cfg := c.AdminConfig()
	cfg.QPS, cfg.Burst = 5000, 5000
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	kc, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var next atomic.Int64
	next.Store(int64(from))
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range 48 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= to || ctx.Err() != nil {
					return
				}
				if err := seedOne(ctx, dyn, kc, nss[i%len(nss)], appName(i)); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		tb.Fatalf("seed: %v", firstErr)
	}
}

func seedOne(ctx context.Context, dyn dynamic.Interface, kc kubernetes.Interface, ns, name string) error {
	apps := dyn.Resource(testcluster.AppsGVR).Namespace(ns)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": "App",
		"metadata": map[string]any{"name": name, "namespace": ns, "labels": map[string]any{"hanzo.ai/org": "hanzo"}},
		"spec":     appSpec(name),
	}}
	app, err := apps.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create app %s/%s: %w", ns, name, err)
	}
	app.Object["status"] = appStatus(name)
	if _, err := apps.UpdateStatus(ctx, app, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("app %s/%s status: %w", ns, name, err)
	}
	deps := kc.AppsV1().Deployments(ns)
	d, err := deps.Create(ctx, deployment(app), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create deployment %s/%s: %w", ns, name, err)
	}
	d.Status = readyStatus(d)
	if _, err := deps.UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("deployment %s/%s status: %w", ns, name, err)
	}
	return nil
}
