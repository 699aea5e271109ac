package e2e

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Restart races on a real control plane (controllers, scheduler, kwok): two
// boards restarting one app at once, a restart racing the workload's
// deletion, and a restart after RBAC was revoked mid-session.
func TestRestartRaces(t *testing.T) {
	t.Parallel()
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	seedApps(t, c, "hanzo", []string{"race"}, "v1.0.0")
	for _, n := range names("gone", 3) {
		if err := c.SeedApp(ctx, "hanzo", n, "service", "ghcr.io/hanzoai/"+n, "v1.0.0", 1); err != nil {
			t.Fatal(err)
		}
	}
	rolloutDone(ctx, t, c, "race")
	grantRBAC(ctx, t, c)

	t.Run("same app from two boards at once", func(t *testing.T) {
		boards := map[string]*kube.Fleet{
			"alice": startFleet(t, c.UserConfig("alice"), kube.FleetOptions{}),
			"bob":   startFleet(t, c.UserConfig("bob"), kube.FleetOptions{}),
		}
		for who, f := range boards {
			waitBoard(t, f, 30*time.Second, who+" sees the app", func(s *store.Snapshot) bool {
				r := findRow(s, key("hanzo", "race"))
				return r != nil && r.Workload.Found
			})
		}
		before := deployment(ctx, t, c, "race")
		var wg sync.WaitGroup
		var mu sync.Mutex
		results := map[string]error{}
		start := make(chan struct{})
		for who, f := range boards {
			wg.Go(func() {
				<-start
				err := f.Restart(ctx, key("hanzo", "race"))
				mu.Lock()
				results[who] = err
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for who, err := range results {
			switch {
			case err == nil:
				ok++
			case !strings.Contains(err.Error(), "race"):
				t.Errorf("%s's restart failed without naming the workload: %v", who, err)
			default:
				t.Logf("%s's restart reported: %v", who, err)
			}
		}
		if ok == 0 {
			t.Fatalf("neither restart went through: %v", results)
		}
		rolloutDone(ctx, t, c, "race")
		after := deployment(ctx, t, c, "race")
		t.Logf("restart results %v; generation %d → %d", results, before.Generation, after.Generation)
		if rolls := after.Generation - before.Generation; rolls < 1 || rolls > 2 {
			t.Errorf("the deployment rolled %d times (generation %d → %d), want once or twice", rolls, before.Generation, after.Generation)
		}
		by := after.Spec.Template.Annotations[model.RestartedByAnnotation]
		if _, known := boards[by]; !known || after.Spec.Template.Annotations[model.RestartedAtAnnotation] == "" {
			t.Errorf("restart annotations after the race: %v", after.Spec.Template.Annotations)
		}
		assertHealthy(ctx, t, c, after)
		waitBoard(t, boards["alice"], 30*time.Second, "the board to show who restarted", func(s *store.Snapshot) bool {
			r := findRow(s, key("hanzo", "race"))
			return r != nil && r.Workload.RestartedBy == by && r.Workload.Rollout == model.RolloutComplete
		})
	})

	t.Run("restart while the workload is deleted", func(t *testing.T) {
		f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
		for _, n := range names("gone", 3) {
			waitBoard(t, f, 30*time.Second, n+" on the board", func(s *store.Snapshot) bool {
				r := findRow(s, key("hanzo", n))
				return r != nil && r.Workload.Found
			})
			if err := c.AdminClient().AppsV1().Deployments("hanzo").Delete(ctx, n, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			err := f.Restart(ctx, key("hanzo", n))
			if err == nil {
				t.Fatalf("restart of %s succeeded although its deployment was just deleted", n)
			}
			if msg := err.Error(); !strings.Contains(msg, "does not exist") && !strings.Contains(msg, "no longer exists") {
				t.Errorf("restart of a deleted workload: unclear error %q", msg)
			}
			t.Logf("%s: %v", n, err)
		}
		time.Sleep(time.Second)
		for _, n := range names("gone", 3) {
			if _, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, n, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("deployment %s is back after a refused restart (err %v)", n, err)
			}
		}
	})

	t.Run("RBAC revoked mid-session", func(t *testing.T) {
		f := startFleet(t, c.UserConfig("carol"), kube.FleetOptions{})
		k := key("hanzo", "race")
		waitBoard(t, f, 30*time.Second, "carol sees the app", func(s *store.Snapshot) bool {
			r := findRow(s, k)
			return r != nil && r.Workload.Found
		})
		if d := f.CheckRestart(ctx, k); !d.Allowed {
			t.Fatalf("carol may not restart before the revocation: %s", d.Reason)
		}
		if err := c.AdminClient().RbacV1().RoleBindings("hanzo").Delete(ctx, "carol-patch", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		var err error
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if err = f.Restart(ctx, k); err != nil || time.Now().After(deadline) {
				break
			}
			t.Log("a restart went through before the revocation reached the authorizer")
		}
		if err == nil {
			t.Fatal("restarts still succeed 15 s after carol's patch permission was revoked")
		}
		var refused *kube.RefusedError
		if msg := err.Error(); !(errors.As(err, &refused) && strings.Contains(msg, "RBAC")) && !apierrors.IsForbidden(err) {
			t.Errorf("restart after revocation: unclear error %q", msg)
		}
		t.Logf("after revocation: %v", err)
		if d := f.CheckRestart(ctx, k); d.Allowed || !strings.Contains(d.Reason, "RBAC") {
			t.Errorf("CheckRestart after revocation: %+v", d)
		}
		if s := f.Snapshot(); phaseOf(s) != model.ConnLive {
			t.Errorf("carol's board is %s after losing only the patch permission", phaseOf(s))
		}
	})
}

func deployment(ctx context.Context, t *testing.T, c *testcluster.Cluster, name string) *appsv1.Deployment {
	t.Helper()
	d, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func rolloutDone(ctx context.Context, t *testing.T, c *testcluster.Cluster, name string) {
	t.Helper()
	if out, err := c.Kubectl(ctx, "rollout", "status", "deployment/"+name, "-n", "hanzo", "--timeout=90s"); err != nil {
		t.Fatalf("rollout of %s: %v\n%s", name, err, out)
	}
}

// assertHealthy checks the workload ended rolled out and not broken: every
// replica updated and available, one ReplicaSet with pods, pods all running.
func assertHealthy(ctx context.Context, t *testing.T, c *testcluster.Cluster, d *appsv1.Deployment) {
	t.Helper()
	want := *d.Spec.Replicas
	st := d.Status
	if st.ObservedGeneration != d.Generation || st.UpdatedReplicas != want || st.AvailableReplicas != want || st.Replicas != want {
		t.Errorf("deployment %s status after the rollout: %+v", d.Name, st)
	}
	sets, err := c.AdminClient().AppsV1().ReplicaSets("hanzo").List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=" + d.Name})
	if err != nil {
		t.Fatal(err)
	}
	withPods := 0
	for _, rs := range sets.Items {
		if rs.Status.Replicas > 0 {
			withPods++
		}
	}
	if withPods != 1 {
		t.Errorf("%d ReplicaSets of %s still have pods after the rollout, want 1", withPods, d.Name)
	}
	pods, err := c.AdminClient().CoreV1().Pods("hanzo").List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=" + d.Name})
	if err != nil {
		t.Fatal(err)
	}
	running := 0
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning {
			running++
		}
	}
	if running != int(want) {
		t.Errorf("%d running pods of %s, want %d", running, d.Name, want)
	}
}

// grantRBAC lets alice and bob read and restart in hanzo; carol reads through
// one binding and restarts through another ("carol-patch"), to be revoked.
func grantRBAC(ctx context.Context, t *testing.T, c *testcluster.Cluster) {
	t.Helper()
	rbac := c.AdminClient().RbacV1()
	roles := []*rbacv1.Role{
		{ObjectMeta: metav1.ObjectMeta{Name: "board-reader", Namespace: "hanzo"}, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"hanzo.ai"}, Resources: []string{"apps", "services"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets", "replicasets"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list", "watch"}},
		}},
		{ObjectMeta: metav1.ObjectMeta{Name: "board-restarter", Namespace: "hanzo"}, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets"}, Verbs: []string{"patch"}},
			{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create"}},
		}},
	}
	for _, r := range roles {
		if _, err := rbac.Roles("hanzo").Create(ctx, r, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	bind := func(name, role string, users ...string) {
		b := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "hanzo"},
			RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: role}}
		for _, u := range users {
			b.Subjects = append(b.Subjects, rbacv1.Subject{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: u})
		}
		if _, err := rbac.RoleBindings("hanzo").Create(ctx, b, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	bind("readers", "board-reader", "alice", "bob", "carol")
	bind("restarters", "board-restarter", "alice", "bob")
	bind("carol-patch", "board-restarter", "carol")
}
