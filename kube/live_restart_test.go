package kube

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// A tag change on the workload rolls out on kwok: the row keeps the tag the
// available pods run while it progresses, then flips.
func TestLiveRolloutAfterTagChange(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 2)
	f := startFleet(t, c.AdminConfig(), FleetOptions{})
	k := key("hanzo", "iam")
	ctx := ctxT(t)
	waitRow(t, f, k, "rolled out", func(r *model.AppView) bool {
		return r != nil && r.Workload.Rollout == model.RolloutComplete && r.Health == model.HealthGreen && r.RunningTag == "v1.0.0"
	})

	// minReadySeconds holds new pods unavailable long enough to watch the middle.
	_, err := c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, "iam", types.StrategicMergePatchType,
		[]byte(`{"spec":{"minReadySeconds":2,"template":{"spec":{"containers":[{"name":"iam","image":"ghcr.io/hanzoai/iam:v1.1.0"}]}}}}`),
		metav1.PatchOptions{})
	must(t, err)
	patchApp(t, c, "hanzo", "iam", `{"spec":{"image":{"tag":"v1.1.0"}}}`)
	// WaitRollout knows the generation of its own restarts only; here the
	// cache must first see the new template.
	waitRow(t, f, k, "new template", func(r *model.AppView) bool { return r != nil && r.Workload.SpecTag == "v1.1.0" })

	var sawMiddle bool
	var views []string
	err = f.WaitRollout(ctx, k, func(v model.WorkloadView) {
		views = append(views, string(v.Rollout)+" "+v.Message)
		if r := findRow(f.Snapshot(), k); r != nil && v.Rollout == model.RolloutProgressing &&
			r.RunningTag == "v1.0.0" && r.Workload.TargetTag == "v1.1.0" {
			sawMiddle = true
		}
	})
	if err != nil {
		t.Fatalf("WaitRollout: %v (views %q)", err, views)
	}
	if !sawMiddle {
		t.Errorf("never saw the rollout in progress with running v1.0.0 → target v1.1.0; views %q", views)
	}
	row := waitRow(t, f, k, "flipped", func(r *model.AppView) bool { return r != nil && r.RunningTag == "v1.1.0" })
	if row.Workload.Rollout != model.RolloutComplete || row.DeclaredTag != "v1.1.0" {
		t.Errorf("after rollout: %+v", row.Workload)
	}
}

// The restart: annotations with who and when, an Event, the rollout
// completes and kubectl agrees; dry-run changes nothing; refusals are clear.
func TestLiveRestart(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 2)
	seed(t, c, "hanzo", "paused", "", "v1.0.0", 1)
	seed(t, c, "hanzo", "edge", "ingress", "v1.0.0", 1)
	seed(t, c, "hanzo", "db", "sql", "v1.0.0", 2)
	_, err := c.CreateApp(ctxT(t), "hanzo", "orphan", "", "ghcr.io/hanzoai/orphan", "v1.0.0", 1)
	must(t, err)
	ctx := ctxT(t)
	_, err = c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctx, "paused", types.MergePatchType,
		[]byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{})
	must(t, err)

	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin), Now: func() time.Time { return now }})
	k := key("hanzo", "iam")
	waitRow(t, f, k, "ready", func(r *model.AppView) bool { return r != nil && r.Workload.Rollout == model.RolloutComplete })
	waitRow(t, f, key("hanzo", "paused"), "paused", func(r *model.AppView) bool { return r != nil && r.Workload.Paused })

	if d := f.CheckRestart(ctx, k); !d.Allowed {
		t.Fatalf("CheckRestart: %s", d.Reason)
	}
	dry, err := f.RestartWith(ctx, k, RestartOptions{DryRun: true})
	must(t, err)
	d, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	if !dry.DryRun || d.Spec.Template.Annotations[model.RestartedAtAnnotation] != "" {
		t.Fatalf("dry run changed the template: %v", d.Spec.Template.Annotations)
	}

	res, err := f.RestartWith(ctx, k, RestartOptions{Reason: "pick up the new config"})
	must(t, err)
	if res.EventError != nil {
		t.Errorf("event: %v", res.EventError)
	}
	d, err = c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	ann := d.Spec.Template.Annotations
	if ann[model.RestartedAtAnnotation] != "2026-11-30T03:00:00Z" || ann[model.RestartedByAnnotation] != "admin" {
		t.Errorf("template annotations %v", ann)
	}
	managed := false
	for _, m := range d.ManagedFields {
		managed = managed || m.Manager == FieldManager
	}
	if !managed {
		t.Errorf("no managedFields entry for %s", FieldManager)
	}
	evs, err := c.AdminClient().CoreV1().Events("hanzo").List(ctx, metav1.ListOptions{
		FieldSelector: fields.Set{"involvedObject.name": "iam", "reason": "Restarted"}.String()})
	must(t, err)
	if len(evs.Items) != 1 || !strings.Contains(evs.Items[0].Message, "admin (alice)") || evs.Items[0].InvolvedObject.UID != d.UID {
		t.Errorf("events %+v", evs.Items)
	}

	var progress []string
	if err := f.WaitRollout(ctx, k, func(v model.WorkloadView) { progress = append(progress, string(v.Rollout)+" "+v.Message) }); err != nil {
		t.Fatalf("WaitRollout: %v (progress %q)", err, progress)
	}
	if len(progress) < 2 {
		t.Errorf("progress reported %d times: %q", len(progress), progress)
	}
	if out, err := c.Kubectl(ctx, "rollout", "status", "deployment/iam", "-n", "hanzo", "--timeout=30s"); err != nil ||
		!strings.Contains(out, "successfully rolled out") {
		t.Errorf("kubectl rollout status: %q %v", out, err)
	}
	row := waitRow(t, f, k, "restarted", func(r *model.AppView) bool { return r != nil && r.Workload.RestartedBy == "admin" })
	if row.Workload.RestartedAt != "2026-11-30T03:00:00Z" {
		t.Errorf("row restartedAt %q", row.Workload.RestartedAt)
	}
	app, err := c.AdminDynamic().Resource(appsGVR).Namespace("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	if app.GetGeneration() != 1 {
		t.Errorf("the App was changed (generation %d)", app.GetGeneration())
	}

	// A StatefulSet restarts the same way and its rollout is followed too.
	db := key("hanzo", "db")
	waitRow(t, f, db, "sts ready", func(r *model.AppView) bool { return r != nil && r.Workload.Rollout == model.RolloutComplete })
	res, err = f.RestartWith(ctx, db, RestartOptions{})
	must(t, err)
	if res.Kind != model.KindStatefulSet {
		t.Errorf("restarted a %s", res.Kind)
	}
	if err := f.WaitRollout(ctx, db, nil); err != nil {
		t.Fatalf("WaitRollout statefulset: %v", err)
	}
	if out, err := c.Kubectl(ctx, "rollout", "status", "statefulset/db", "-n", "hanzo", "--timeout=30s"); err != nil {
		t.Errorf("kubectl rollout status statefulset: %q %v", out, err)
	}
	row = waitRow(t, f, db, "sts restarted", func(r *model.AppView) bool {
		return r != nil && r.Workload.RestartedBy == "admin" && r.Workload.Rollout == model.RolloutComplete
	})
	if row.RunningTag != "v1.0.0" || row.Health != model.HealthGreen {
		t.Errorf("statefulset row after restart: running %q health %q", row.RunningTag, row.Health)
	}

	refusals := map[string]string{"paused": "paused", "orphan": "does not exist", "edge": "makes no workload", "ghost": "not on cluster"}
	for name, want := range refusals {
		d := f.CheckRestart(ctx, key("hanzo", name))
		err := f.Restart(ctx, key("hanzo", name))
		var refused *RefusedError
		if d.Allowed || !strings.Contains(d.Reason, want) || !errors.As(err, &refused) {
			t.Errorf("%s: decision %+v, error %v; want refusal containing %q", name, d, err, want)
		}
	}
	ro := NewFleet(FleetOptions{ReadOnly: true, Principal: principal(superAdmin)})
	if d := ro.CheckRestart(ctx, k); d.Allowed || !strings.Contains(d.Reason, "read-only") {
		t.Errorf("read-only: %+v", d)
	}
	nobody := NewFleet(FleetOptions{Principal: principal(nil)})
	if d := nobody.CheckRestart(ctx, k); d.Allowed || !strings.Contains(d.Reason, "not logged in") {
		t.Errorf("logged out: %+v", d)
	}
}

// A user bound by RBAC only to tenant-acme sees exactly that namespace and
// cannot restart in hanzo: the scope check says so, and with the scope check
// out of the way (a SuperAdmin principal) Kubernetes does too.
func TestLiveTenantUser(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-mainnet", "tenant-acme", "tenant-other")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	seed(t, c, "tenant-other", "web", "", "v1.0.0", 1)
	seed(t, c, "tenant-acme", "shop", "", "v1.0.0", 1)
	seed(t, c, "tenant-acme", "cart", "", "v1.0.0", 1)
	bindTenant(t, c, "tenant-acme", "carol")
	user := c.UserConfig("carol")

	f := startFleet(t, user, FleetOptions{Principal: principal(acmeAdmin)})
	snap := waitCluster(t, f, "rows", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnLive && s.Len() == 2
	})
	for _, r := range snap.Rows() {
		if r.Namespace != "tenant-acme" {
			t.Errorf("restricted user sees %s", r.Key())
		}
	}
	notices := strings.Join(snap.Clusters[0].Notices, "\n")
	for _, ns := range []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet"} {
		if !strings.Contains(notices, "namespace "+ns+": ") {
			t.Errorf("no notice for %s in %q", ns, notices)
		}
	}
	if strings.Contains(notices, "tenant-acme") {
		t.Errorf("tenant-acme reported as a problem: %q", notices)
	}

	ctx := ctxT(t)
	if d := f.CheckRestart(ctx, key("tenant-acme", "shop")); !d.Allowed {
		t.Errorf("own tenant refused: %s", d.Reason)
	}
	d := f.CheckRestart(ctx, key("hanzo", "iam"))
	if d.Allowed || !strings.Contains(d.Reason, "belongs to hanzo") {
		t.Errorf("scope check: %+v", d)
	}
	must(t, f.Restart(ctx, key("tenant-acme", "shop")))

	// Scope bypassed: Kubernetes itself refuses, before (SSAR) and at the patch.
	cl := f.byName[testClusterName]
	allowed, _, err := cl.canPatch(ctx, "deployments", "hanzo", "iam")
	if err != nil || allowed {
		t.Errorf("SSAR for hanzo: allowed=%v err=%v", allowed, err)
	}
	_, err = f.patchRestart(ctx, target{c: cl, key: key("hanzo", "iam"), kind: model.KindDeployment, who: "alice"}, RestartOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "patch deployment hanzo/iam: Kubernetes refused") {
		t.Errorf("patch outside the tenant: %v", err)
	}
}

// A user that may list namespaces but read only tenant-acme: discovery finds
// the namespaces, the unreadable ones are skipped with one notice.
func TestLiveNamespaceListingUser(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "tenant-acme", "tenant-other")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	seed(t, c, "tenant-acme", "shop", "", "v1.0.0", 1)
	bindTenant(t, c, "tenant-acme", "dave")
	ctx := ctxT(t)
	_, err := c.AdminClient().RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "list-namespaces"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"list", "get"}}},
	}, metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "dave-list-namespaces"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "list-namespaces"},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "dave"}},
	}, metav1.CreateOptions{})
	must(t, err)

	f := startFleet(t, c.UserConfig("dave"), FleetOptions{})
	snap := waitCluster(t, f, "rows", func(st model.ClusterState, s *store.Snapshot) bool {
		return st.Phase == model.ConnLive && s.Len() == 1
	})
	if r := snap.Rows()[0]; r.Key() != key("tenant-acme", "shop") {
		t.Errorf("row %s", r.Key())
	}
	n := slices.DeleteFunc(slices.Clone(snap.Clusters[0].Notices), func(s string) bool { return strings.HasPrefix(s, cd.NoticeInstallNotWatched) })
	if len(n) != 1 || !strings.Contains(n[0], "not readable") {
		t.Errorf("notices %q", n)
	}

	// No IAM principal: Kubernetes RBAC alone decides, and the Kubernetes
	// user is who restarted.
	res, err := f.RestartWith(ctx, key("tenant-acme", "shop"), RestartOptions{})
	must(t, err)
	if res.By != "dave" {
		t.Errorf("restartedBy %q, want the Kubernetes user dave", res.By)
	}
	if d := f.CheckRestart(ctx, key("hanzo", "iam")); d.Allowed {
		t.Errorf("restart outside the readable namespaces allowed: %+v", d)
	}
}

// bindTenant lets user read the board's kinds and restart in ns only.
func bindTenant(t *testing.T, c *testcluster.Cluster, ns, user string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	role := rbacRole(ns)
	_, err := c.AdminClient().RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{})
	must(t, err)
	_, err = c.AdminClient().RbacV1().RoleBindings(ns).Create(ctx, rbacBinding(ns, user), metav1.CreateOptions{})
	must(t, err)
}
