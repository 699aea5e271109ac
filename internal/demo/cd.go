package demo

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/model"
)

// Hanzo CD in the demo: per cluster, universe-crs syncs the App CRs of the
// platform's namespaces from git (tenant namespaces are the platform's
// writes, so CD does not manage them), a few of them out of sync; and a few
// services on the Helm chart plane have no App CR at all, only an
// Application and the Deployment it deploys.

const cdNamespace = "hanzo-cd"

// chartServices per cluster: how many of the plan's repos also run on the
// chart plane, and which of them runs behind its declaration.
const chartServices = 3

// cdManages says whether the demo's universe-crs syncs an App's CR: the
// platform's namespaces, not the tenants' (the platform writes those).
func cdManages(a *appPlan) bool { return !strings.HasPrefix(a.ns, "tenant-") }

func (s *sim) materializeCD(ctx context.Context) error {
	now := s.now()
	for _, cluster := range clusterNames {
		fc := s.clusters[cluster]
		var resources []any
		for _, a := range s.plan.apps {
			if a.cluster != cluster || !cdManages(a) {
				continue
			}
			status := "Synced"
			if a.sc == scStale && hashOf(a.key())%3 == 0 { // the fix is committed, the sync not run yet
				status = "OutOfSync"
			}
			resources = append(resources, map[string]any{"group": "hanzo.ai", "version": "v1", "kind": a.kind,
				"namespace": a.ns, "name": a.name, "status": status, "health": map[string]any{"status": "Healthy"}})
		}
		crs := cdApplication("universe-crs", map[string]any{"repoURL": "https://github.com/hanzoai/universe",
			"path": "infra/k8s/operator/crs", "targetRevision": "main"}, "hanzo", commitOf(cluster), "OutOfSync", now.Add(-17*time.Minute), resources)
		if _, err := fc.dyn.Resource(cdAppsGVR).Namespace(cdNamespace).Create(ctx, crs, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create Application universe-crs on %s: %w", cluster, err)
		}
		if err := s.materializeCharts(ctx, fc, now); err != nil {
			return err
		}
	}
	return nil
}

// materializeCharts creates chart-plane services: an Application with Helm
// parameters and a Deployment (with its ReplicaSet) that no App owns.
func (s *sim) materializeCharts(ctx context.Context, fc *fakeCluster, now time.Time) error {
	taken := map[string]bool{}
	for _, a := range s.plan.apps {
		if a.cluster == fc.name && a.ns == "hanzo" {
			taken[a.name] = true
		}
	}
	made := 0
	for _, repo := range s.plan.repoNames {
		if made == chartServices {
			break
		}
		r := s.plan.repos[repo]
		name := repo[strings.LastIndex(repo, "/")+1:] + "-chart"
		if taken[name] || r.state != model.ReleaseFound {
			continue
		}
		taken[name] = true // two owners' repos may share a name
		declared, running := r.latest(), r.latest()
		if made == 1 {
			running = r.previous(1) // declared in the chart values, not rolled yet
		}
		params := []any{
			map[string]any{"name": "image.repository", "value": registryHost + "/" + repo},
			map[string]any{"name": "image.tag", "value": declared},
		}
		src := map[string]any{"repoURL": "oci://oci.hanzo.ai/charts", "chart": name, "targetRevision": "0." + fmt.Sprint(3+made) + ".0",
			"helm": map[string]any{"parameters": params}}
		syncStatus := "Synced"
		if running != declared {
			syncStatus = "OutOfSync"
		}
		res := []any{map[string]any{"group": "apps", "version": "v1", "kind": "Deployment", "namespace": "hanzo",
			"name": name, "status": syncStatus, "health": map[string]any{"status": "Healthy"}}}
		app := cdApplication(name, src, "hanzo", "0."+fmt.Sprint(3+made)+".0", syncStatus, now.Add(-time.Duration(40+made*7)*time.Minute), res)
		if _, err := fc.dyn.Resource(cdAppsGVR).Namespace(cdNamespace).Create(ctx, app, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create Application %s on %s: %w", name, fc.name, err)
		}
		if err := s.chartDeployment(ctx, fc, name, repo, running, now.Add(-time.Duration(40+made*7)*time.Minute)); err != nil {
			return err
		}
		made++
	}
	return nil
}

func cdApplication(name string, source map[string]any, destNS, revision, sync string, finished time.Time, resources []any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": cdAppsGVR.GroupVersion().String(), "kind": "Application",
		"metadata": map[string]any{"name": name, "namespace": cdNamespace},
		"spec": map[string]any{"project": "default", "source": source,
			"destination": map[string]any{"server": "https://kubernetes.default.svc", "namespace": destNS}},
		"status": map[string]any{
			"sync":   map[string]any{"status": sync, "revision": revision},
			"health": map[string]any{"status": "Healthy"},
			"operationState": map[string]any{"phase": "Succeeded", "message": "successfully synced (all tasks run)",
				"finishedAt": finished.UTC().Format(time.RFC3339)},
			"resources": resources,
		},
	}}
}

// chartDeployment is a settled Deployment of one replica with its
// ReplicaSet and running pod (pulled from the demo registry, as an App's
// pods are), deployed by CD at synced, not by the operator.
func (s *sim) chartDeployment(ctx context.Context, fc *fakeCluster, name, repo, tag string, synced time.Time) error {
	one := int32(1)
	labels := map[string]string{"app.kubernetes.io/name": name, "app.kubernetes.io/managed-by": "Helm"}
	tpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: imageRef(repo, tag)}}}}
	rev := map[string]string{"deployment.kubernetes.io/revision": "1"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "hanzo", Labels: labels, Annotations: rev, Generation: 1},
		Spec:       appsv1.DeploymentSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: tpl},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 1, ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable"}}},
	}
	got, err := fc.kube.AppsV1().Deployments("hanzo").Create(ctx, d, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create chart Deployment %s: %w", name, err)
	}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name + "-" + commitOf(name)[:10], Namespace: "hanzo", Labels: labels, Annotations: rev,
			OwnerReferences: []metav1.OwnerReference{ownerRef("apps/v1", "Deployment", name, got.UID)}},
		Spec:   appsv1.ReplicaSetSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: tpl},
		Status: appsv1.ReplicaSetStatus{Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 1},
	}
	gotRS, err := fc.kube.AppsV1().ReplicaSets("hanzo").Create(ctx, rs, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create chart ReplicaSet %s: %w", rs.Name, err)
	}
	return chartPod(ctx, fc, gotRS, s.reg.digest(repo, tag), synced)
}

// chartPod is the ReplicaSet's one running, ready pod.
func chartPod(ctx context.Context, fc *fakeCluster, rs *appsv1.ReplicaSet, digest string, started time.Time) error {
	hash := rs.Name[strings.LastIndexByte(rs.Name, '-')+1:]
	labels := map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: hash}
	for k, v := range rs.Spec.Template.Labels {
		labels[k] = v
	}
	name := rs.Name + "-" + commitOf(rs.Name)[:5]
	c := rs.Spec.Template.Spec.Containers[0]
	at := metav1.NewTime(started)
	ready := []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: rs.Namespace, Labels: labels, CreationTimestamp: at,
			OwnerReferences: []metav1.OwnerReference{ownerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)}},
		Spec: *rs.Spec.Template.Spec.DeepCopy(),
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: podIP(types.UID(name)), StartTime: &at, Conditions: ready,
			ContainerStatuses: []corev1.ContainerStatus{{Name: c.Name, Image: c.Image, ImageID: imageDigestRef(c.Image, digest),
				Ready: true, Started: ptr(true), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}}},
	}
	if _, err := fc.kube.CoreV1().Pods(rs.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create chart pod %s: %w", name, err)
	}
	return nil
}

// CD's facts are drawn from hashes, not the simulator's random source, so
// adding them leaves the demo's events as they were.
func hashOf(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}

// commitOf is a 40-hex commit derived from s.
func commitOf(s string) string {
	var b strings.Builder
	for i := 0; b.Len() < 40; i++ {
		fmt.Fprintf(&b, "%08x", hashOf(fmt.Sprint(s, i)))
	}
	return b.String()[:40]
}
