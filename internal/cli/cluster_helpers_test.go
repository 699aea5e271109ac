package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// listDoc mirrors the documented JSON of `driftboard list` field by field,
// so a renamed or missing field fails here.
type listDoc struct {
	Apps []struct {
		ID          *string   `json:"id"`
		Org         *string   `json:"org"`
		App         *string   `json:"app"`
		Env         *string   `json:"env"`
		Repo        *string   `json:"repo"`
		Registry    *string   `json:"registry"`
		DeclaredTag *string   `json:"declaredTag"`
		RunningTag  *string   `json:"runningTag"`
		LatestTag   *string   `json:"latestTag"`
		Health      *string   `json:"health"`
		Phase       *string   `json:"phase"`
		Cluster     *string   `json:"cluster"`
		Namespace   *string   `json:"namespace"`
		Endpoints   *[]string `json:"endpoints"`
		Drift       *struct {
			Severity string `json:"severity"`
			Flags    *[]struct {
				Kind     string `json:"kind"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			} `json:"flags"`
		} `json:"drift"`
	} `json:"apps"`
	Summary *struct {
		Total   int            `json:"total"`
		ByDrift map[string]int `json:"byDrift"`
	} `json:"summary"`
}

func parseList(t *testing.T, out string) listDoc {
	t.Helper()
	var d listDoc
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("list -o json is not JSON: %v\n%s", err, out)
	}
	if d.Apps == nil || d.Summary == nil {
		t.Fatalf("list -o json lacks apps or summary:\n%s", out)
	}
	for i, a := range d.Apps {
		if a.ID == nil || a.Org == nil || a.App == nil || a.Env == nil || a.Repo == nil || a.Registry == nil ||
			a.DeclaredTag == nil || a.RunningTag == nil || a.LatestTag == nil || a.Health == nil || a.Phase == nil ||
			a.Cluster == nil || a.Namespace == nil || a.Endpoints == nil || a.Drift == nil || a.Drift.Flags == nil {
			t.Fatalf("apps[%d] lacks a documented field (flags must be [], not null):\n%s", i, out)
		}
	}
	for _, k := range []string{"ok", "yellow", "red"} {
		if _, ok := d.Summary.ByDrift[k]; !ok {
			t.Fatalf("summary.byDrift lacks %q:\n%s", k, out)
		}
	}
	return d
}

func (d listDoc) count(sev string) int { return d.Summary.ByDrift[sev] }

func setDeclaredTag(t *testing.T, c *testcluster.Cluster, ns, name, tag string) {
	t.Helper()
	patch := []byte(`{"spec":{"image":{"tag":"` + tag + `"}}}`)
	_, err := c.AdminDynamic().Resource(testcluster.AppsGVR).Namespace(ns).Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("patch App %s/%s: %v", ns, name, err)
	}
}

type deploymentState struct {
	gen         int64
	rv          string
	restartedAt string
}

func deployment(t *testing.T, c *testcluster.Cluster, ns, name string) deploymentState {
	t.Helper()
	d, err := c.AdminClient().AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return deploymentState{gen: d.Generation, rv: d.ResourceVersion, restartedAt: d.Spec.Template.Annotations[model.RestartedAtAnnotation]}
}

func deploymentBy(t *testing.T, c *testcluster.Cluster, ns, name string) string {
	t.Helper()
	d, err := c.AdminClient().AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d.Spec.Template.Annotations[model.RestartedByAnnotation]
}

func restartEvents(t *testing.T, c *testcluster.Cluster, ns string) int {
	t.Helper()
	evs, err := c.AdminClient().CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs.Items {
		if ev.Reason == "Restarted" {
			n++
		}
	}
	return n
}

// waitReady waits until the Deployment's pods all run its current template.
func waitReady(ctx context.Context, t *testing.T, c *testcluster.Cluster, ns, name string) {
	t.Helper()
	for {
		d, err := c.AdminClient().AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && d.Status.ObservedGeneration == d.Generation && d.Status.UpdatedReplicas == *d.Spec.Replicas &&
			d.Status.ReadyReplicas == *d.Spec.Replicas && d.Status.Replicas == *d.Spec.Replicas {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("Deployment %s/%s never became ready: %v", ns, name, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitStatefulSetReady is waitReady for a StatefulSet.
func waitStatefulSetReady(ctx context.Context, t *testing.T, c *testcluster.Cluster, ns, name string) {
	t.Helper()
	for {
		s, err := c.AdminClient().AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && s.Status.ObservedGeneration == s.Generation && s.Status.UpdatedReplicas == *s.Spec.Replicas &&
			s.Status.ReadyReplicas == *s.Spec.Replicas && s.Status.CurrentRevision == s.Status.UpdateRevision {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("StatefulSet %s/%s never became ready: %v", ns, name, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// grantClusterAdmin gives users every permission, so that only the board's
// own rules can refuse them.
func grantClusterAdmin(ctx context.Context, t *testing.T, c *testcluster.Cluster, users ...string) {
	t.Helper()
	b := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "iam-users-admin"},
		RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"}}
	for _, u := range users {
		b.Subjects = append(b.Subjects, rbacv1.Subject{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: u})
	}
	if _, err := c.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// noPatch fails when the audit log holds any patch of the deployment
// received since, by anyone (a dry run included).
func noPatch(t *testing.T, c *testcluster.Cluster, since time.Time, ns, name string) {
	t.Helper()
	events, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if ev.Verb == "patch" && !ev.RequestReceivedTimestamp.Before(since) && ev.ObjectRef != nil && ev.ObjectRef.Resource == "deployments" &&
			ev.ObjectRef.Namespace == ns && ev.ObjectRef.Name == name {
			t.Errorf("the audit log has a patch of %s/%s by %s", ns, name, ev.User.Username)
		}
	}
}
