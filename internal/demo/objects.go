package demo

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/hanzoai/driftboard/model"
)

// Objects shaped like the Hanzo operator's: the App CR (spec only; the
// simulated operator writes its status) and the workload it makes.

const registryHost = "ghcr.io"

func imageRef(repo, tag string) string { return registryHost + "/" + repo + ":" + tag }

func namespaceObject(ns string) *corev1.Namespace {
	labels := map[string]string{"kubernetes.io/metadata.name": ns}
	if env := model.EnvOf(ns); env != "" {
		labels["hanzo.ai/env"] = string(env)
	}
	if t := model.TenantOf(ns); t != "" {
		labels["hanzo.ai/tenant"] = t
	}
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: labels},
		Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
}

// appObject is the App (or Service) CR as committed to git.
func appObject(a *appPlan, created metav1.Time) *unstructured.Unstructured {
	spec := map[string]any{}
	if a.role != "" {
		spec["role"] = a.role
	}
	switch {
	case a.sc == scBadImage:
		spec["image"] = imageRef(a.repo, a.declared) // the old shape: a string
	case a.repo != "":
		spec["image"] = map[string]any{"repository": registryHost + "/" + a.repo, "tag": a.declared, "pullPolicy": "IfNotPresent"}
	}
	switch {
	case a.sc == scBadReplicas:
		spec["replicas"] = "three"
	case !a.replicasAbsent && model.ExpectedKind(a.role) != model.KindNone:
		spec["replicas"] = int64(a.replicas)
	}
	if a.repo != "" {
		spec["ports"] = []any{map[string]any{"name": "http", "containerPort": int64(8000)}}
		spec["env"] = []any{map[string]any{"name": "HANZO_ENV", "value": string(model.EnvOf(a.ns))}}
		spec["resources"] = map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "256Mi"}}
	}
	if len(a.hosts) > 0 || a.sc == scIngress || a.sc == scNoImage {
		hosts := make([]any, 0, len(a.hosts))
		for _, h := range a.hosts {
			hosts = append(hosts, h)
		}
		spec["ingress"] = map[string]any{"enabled": true, "hosts": hosts, "ingressClassName": "hanzo", "tls": true}
	}
	labels := map[string]any{"app.kubernetes.io/part-of": "universe"}
	if a.org != "" {
		labels[model.OrgLabel] = a.org
	}
	meta := map[string]any{"name": a.name, "namespace": a.ns, "labels": labels}
	if cdManages(a) { // the key Hanzo CD writes on what it syncs
		meta["annotations"] = map[string]any{
			"apps.hanzo.ai/tracking-id": fmt.Sprintf("universe-crs:hanzo.ai/%s:%s/%s", a.kind, a.ns, a.name),
		}
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hanzo.ai/v1", "kind": a.kind, "metadata": meta, "spec": spec,
	}}
	u.SetCreationTimestamp(created)
	return u
}

func workloadLabels(a *appPlan, tag string) map[string]string {
	l := map[string]string{
		"app.kubernetes.io/name":       a.name,
		"app.kubernetes.io/instance":   a.name,
		"app.kubernetes.io/managed-by": "hanzo-operator",
		"app.kubernetes.io/part-of":    "universe",
	}
	if tag != "" {
		l["app.kubernetes.io/version"] = tag
	}
	if a.role != "" {
		l["app.kubernetes.io/component"] = a.role
	}
	return l
}

func selectorLabels(a *appPlan) map[string]string {
	if a.sc == scLegacy {
		return map[string]string{"app": a.name} // the pre-operator selector
	}
	return map[string]string{"app.kubernetes.io/name": a.name, "app.kubernetes.io/instance": a.name}
}

// podTemplate is the template the operator writes for an App at tag.
func podTemplate(a *appPlan, tag string) corev1.PodTemplateSpec {
	labels := selectorLabels(a)
	if a.sc != scLegacy {
		labels["app.kubernetes.io/version"] = tag
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: a.name, Image: imageRef(a.repo, tag), ImagePullPolicy: corev1.PullIfNotPresent,
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8000, Protocol: corev1.ProtocolTCP}},
			Env:   []corev1.EnvVar{{Name: "HANZO_ENV", Value: string(model.EnvOf(a.ns))}},
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("256Mi"),
			}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Path: "/health", Port: intstr.FromString("http")}}, PeriodSeconds: 5},
		}}},
	}
}

func ownerRef(apiVersion, kind, name string, uid types.UID) metav1.OwnerReference {
	t := true
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &t, BlockOwnerDeletion: &t}
}

// deploymentObject is the App's Deployment without status.
func deploymentObject(a *appPlan, tpl corev1.PodTemplateSpec, appUID types.UID, paused bool) *appsv1.Deployment {
	n := a.replicas
	one := intstr.FromInt32(1)
	zero := intstr.FromInt32(0)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: a.name, Namespace: a.ns, Labels: workloadLabels(a, templateTag(tpl))},
		Spec: appsv1.DeploymentSpec{
			Replicas: &n,
			Selector: &metav1.LabelSelector{MatchLabels: selectorLabels(a)},
			Template: tpl,
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &one, MaxUnavailable: &zero}},
			MinReadySeconds:         10,
			RevisionHistoryLimit:    ptr(int32(10)),
			ProgressDeadlineSeconds: ptr(int32(progressDeadline.Seconds())),
			Paused:                  paused,
		},
	}
	if a.sc == scLegacy {
		d.Labels = map[string]string{"app": a.name}
	} else {
		d.OwnerReferences = []metav1.OwnerReference{ownerRef("hanzo.ai/v1", a.kind, a.name, appUID)}
	}
	return d
}

func statefulSetObject(a *appPlan, tpl corev1.PodTemplateSpec, appUID types.UID) *appsv1.StatefulSet {
	n := a.replicas
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: a.name, Namespace: a.ns, Labels: workloadLabels(a, templateTag(tpl)),
			OwnerReferences: []metav1.OwnerReference{ownerRef("hanzo.ai/v1", a.kind, a.name, appUID)}},
		Spec: appsv1.StatefulSetSpec{
			Replicas: &n, ServiceName: a.name,
			Selector:            &metav1.LabelSelector{MatchLabels: selectorLabels(a)},
			Template:            tpl,
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(0))}},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("20Gi")}}},
			}},
		},
	}
}

// templateTag is the tag of the template's first container.
func templateTag(tpl corev1.PodTemplateSpec) string {
	if len(tpl.Spec.Containers) == 0 {
		return ""
	}
	img := tpl.Spec.Containers[0].Image
	if i := strings.LastIndexByte(img, ':'); i > strings.LastIndexByte(img, '/') {
		return img[i+1:]
	}
	return ""
}

// templateHash names a pod template the way the controllers do: a short,
// stable, DNS-safe hash of its content.
func templateHash(tpl corev1.PodTemplateSpec) string {
	b, _ := json.Marshal(tpl) // a PodTemplateSpec always marshals
	h := fnv.New32a()
	_, _ = h.Write(b)
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

func ptr[T any](v T) *T { return &v }
