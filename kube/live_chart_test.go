package kube

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A service on the Helm chart plane: no App CR, a Hanzo CD Application with
// a chart and Helm parameters, and the Deployment it lists. Its row comes
// from those facts, follows the Application, and goes with it.
func TestLiveChartPlaneRow(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1) // an App row beside it
	ctx := ctxT(t)
	one := int32(1)
	labels := map[string]string{"app.kubernetes.io/name": "billing"}
	_, err := c.AdminClient().AppsV1().Deployments("hanzo").Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "billing", Namespace: "hanzo", Labels: labels},
		Spec: appsv1.DeploymentSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "billing", Image: "ghcr.io/hanzoai/billing:v1.2.0"}}}}},
	}, metav1.CreateOptions{})
	must(t, err)
	apps := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd")
	app := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "billing", "namespace": "hanzo-cd"},
		"spec": map[string]any{
			"source": map[string]any{"repoURL": "oci://oci.hanzo.ai/charts", "chart": "billing", "targetRevision": "0.4.1",
				"helm": map[string]any{"parameters": []any{
					map[string]any{"name": "image.repository", "value": "ghcr.io/hanzoai/billing"},
					map[string]any{"name": "image.tag", "value": "v1.3.0"}}}},
			"destination": map[string]any{"namespace": "hanzo"}},
		"status": map[string]any{
			"sync": map[string]any{"status": "OutOfSync", "revision": "0.4.1"},
			"resources": []any{map[string]any{"group": "apps", "version": "v1", "kind": "Deployment",
				"namespace": "hanzo", "name": "billing", "status": "OutOfSync"}}},
	}}
	_, err = apps.Create(ctx, app, metav1.CreateOptions{})
	must(t, err)

	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	r := waitRow(t, f, key("hanzo", "billing"), "the chart row", func(r *model.AppView) bool { return r != nil })
	if r.Kind != model.KindChart || r.DeclaredTag != "v1.3.0" || r.Workload.SpecTag != "v1.2.0" || !r.Workload.Found ||
		r.Git.State != model.GitOutOfSync || r.Chart == nil || r.Chart.TagFrom != "helm parameter image.tag" {
		t.Errorf("chart row: kind %s declared %s workload %+v git %+v chart %+v", r.Kind, r.DeclaredTag, r.Workload, r.Git, r.Chart)
	}
	if next := model.GitNextStep(r); next != "" && next != "git declares v1.3.0 (commit 0.4.1), sync pending" {
		t.Errorf("next step = %q", next)
	}
	if iam := findRow(f.Snapshot(), key("hanzo", "iam")); iam == nil || iam.Kind != "App" || iam.Git.State != model.GitNotManaged {
		t.Errorf("the App row beside it: %+v", iam)
	}

	// The Application declares v1.3.1 and CD synced: the row follows.
	got, err := apps.Get(ctx, "billing", metav1.GetOptions{})
	must(t, err)
	must(t, unstructured.SetNestedSlice(got.Object, []any{
		map[string]any{"name": "image.tag", "value": "v1.3.1"}}, "spec", "source", "helm", "parameters"))
	res, _, _ := unstructured.NestedSlice(got.Object, "status", "resources")
	res[0].(map[string]any)["status"] = "Synced"
	must(t, unstructured.SetNestedSlice(got.Object, res, "status", "resources"))
	_, err = apps.Update(ctx, got, metav1.UpdateOptions{})
	must(t, err)
	waitRow(t, f, key("hanzo", "billing"), "the chart row follows its Application", func(r *model.AppView) bool {
		return r != nil && r.DeclaredTag == "v1.3.1" && r.Git.State == model.GitSynced
	})

	// No App CR: a restart is refused and says why (not "not found").
	if d := f.CheckRestart(ctx, key("hanzo", "billing")); d.Allowed || !strings.Contains(d.Reason, "Helm chart plane") {
		t.Errorf("restart of a chart row: %+v", d)
	}

	// The Application is deleted: the row goes (an App row would stay).
	must(t, apps.Delete(ctx, "billing", metav1.DeleteOptions{}))
	waitRow(t, f, key("hanzo", "billing"), "the chart row goes with its Application", func(r *model.AppView) bool { return r == nil })
}
