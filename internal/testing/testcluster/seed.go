package testcluster

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// WorkloadKind is the workload the operator makes for an App role:
// "Deployment", "StatefulSet", or "" when it makes none (hanzo-facts.md).
func WorkloadKind(role string) string {
	switch role {
	case "", "generic", "service", "llm", "iam", "kms", "explorer", "function",
		"indexer", "observability", "queue", "spa", "static":
		return "Deployment"
	case "sql", "kv", "docdb", "s3", "datastore":
		return "StatefulSet"
	}
	return ""
}

// AppObject builds an App CR. Empty role, repo or tag leave that field out.
func AppObject(namespace, name, role, repo, tag string, replicas int32) *unstructured.Unstructured {
	spec := map[string]any{"replicas": int64(replicas)}
	if role != "" {
		spec["role"] = role
	}
	if repo != "" {
		image := map[string]any{"repository": repo, "pullPolicy": "IfNotPresent"}
		if tag != "" {
			image["tag"] = tag
		}
		spec["image"] = image
	}
	app := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1",
		"kind":       "App",
		"metadata":   map[string]any{"name": name, "namespace": namespace},
		"spec":       spec,
	}}
	return app
}

// CreateApp creates the App CR only and returns it as stored.
func (c *Cluster) CreateApp(ctx context.Context, namespace, name, role, repo, tag string, replicas int32) (*unstructured.Unstructured, error) {
	app, err := c.adminDyn.Resource(AppsGVR).Namespace(namespace).Create(ctx,
		AppObject(namespace, name, role, repo, tag, replicas), metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("create app %s/%s: %w", namespace, name, err)
	}
	return app, nil
}

// SeedApp creates the App CR and the workload the operator would make for its
// role (a Deployment, a StatefulSet, or nothing), owned by the App.
func (c *Cluster) SeedApp(ctx context.Context, namespace, name, role, repo, tag string, replicas int32) error {
	app, err := c.CreateApp(ctx, namespace, name, role, repo, tag, replicas)
	if err != nil {
		return err
	}
	switch WorkloadKind(role) {
	case "Deployment":
		_, err = c.adminKube.AppsV1().Deployments(namespace).Create(ctx, OperatorDeployment(app), metav1.CreateOptions{})
	case "StatefulSet":
		_, err = c.adminKube.AppsV1().StatefulSets(namespace).Create(ctx, OperatorStatefulSet(app), metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("create workload for app %s/%s: %w", namespace, name, err)
	}
	return nil
}

// OperatorDeployment is the Deployment the operator makes for app: same name
// and namespace, app.kubernetes.io labels, controller owner reference (needs
// the stored App's UID), rolling update maxSurge 1 / maxUnavailable 0. Unlike
// the operator it has no minReadySeconds and a zero termination grace period,
// and it is pinned to the kwok node, so rollouts finish in a second or two.
func OperatorDeployment(app *unstructured.Unstructured) *appsv1.Deployment {
	meta, template, replicas := workloadParts(app)
	surge, unavailable := intstr.FromInt32(1), intstr.FromInt32(0)
	return &appsv1.Deployment{
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: selectorLabels(app.GetName())},
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable},
			},
			Template: template,
		},
	}
}

// OperatorStatefulSet is the StatefulSet the operator makes for a datastore
// role, shaped like OperatorDeployment (parallel pod management for speed).
func OperatorStatefulSet(app *unstructured.Unstructured) *appsv1.StatefulSet {
	meta, template, replicas := workloadParts(app)
	return &appsv1.StatefulSet{
		ObjectMeta: meta,
		Spec: appsv1.StatefulSetSpec{
			Replicas:            &replicas,
			ServiceName:         app.GetName(),
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Selector:            &metav1.LabelSelector{MatchLabels: selectorLabels(app.GetName())},
			UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType},
			Template:            template,
		},
	}
}

// OperatorLabels are the labels the operator puts on an App's workload.
func OperatorLabels(name, tag string) map[string]string {
	labels := selectorLabels(name)
	labels["app.kubernetes.io/managed-by"] = "hanzo-operator"
	if tag != "" {
		labels["app.kubernetes.io/version"] = tag
	}
	return labels
}

func selectorLabels(name string) map[string]string {
	return map[string]string{"app.kubernetes.io/name": name, "app.kubernetes.io/instance": name}
}

func workloadParts(app *unstructured.Unstructured) (metav1.ObjectMeta, corev1.PodTemplateSpec, int32) {
	name := app.GetName()
	repo, _, _ := unstructured.NestedString(app.Object, "spec", "image", "repository")
	tag, _, _ := unstructured.NestedString(app.Object, "spec", "image", "tag")
	replicas := int32(1)
	if n, found, err := unstructured.NestedInt64(app.Object, "spec", "replicas"); found && err == nil {
		replicas = int32(n)
	}
	image := repo
	if image == "" {
		image = "registry.invalid/no-image" // route-only Apps declare none; pods still need one
	}
	if tag != "" {
		image += ":" + tag
	}
	labels := OperatorLabels(name, tag)
	meta := metav1.ObjectMeta{
		Name:      name,
		Namespace: app.GetNamespace(),
		Labels:    labels,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion:         "hanzo.ai/v1",
			Kind:               "App",
			Name:               name,
			UID:                app.GetUID(),
			Controller:         ptr(true),
			BlockOwnerDeletion: ptr(true),
		}},
	}
	template := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:            name,
				Image:           image,
				ImagePullPolicy: corev1.PullIfNotPresent,
			}},
			TerminationGracePeriodSeconds: ptr(int64(0)),
			NodeSelector:                  map[string]string{"type": "kwok"},
			Tolerations: []corev1.Toleration{{
				Key: kwokNodeAnnotation, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule,
			}},
		},
	}
	return meta, template, replicas
}

func ptr[T any](v T) *T { return &v }
