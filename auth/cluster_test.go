package auth_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// iamAuthenticationConfig is what a cluster admin configures for the API
// server to accept IAM tokens: the issuer, its CA, the client id as
// audience, "iam:<sub>" as user name and each org membership as the group
// "<org>:<role>".
func iamAuthenticationConfig(issuer string, caPEM []byte) []byte {
	cfg := map[string]any{
		"apiVersion": "apiserver.config.k8s.io/v1",
		"kind":       "AuthenticationConfiguration",
		"jwt": []any{map[string]any{
			"issuer": map[string]any{
				"url":                  issuer,
				"audiences":            []string{"hanzo-cli"},
				"certificateAuthority": string(caPEM),
			},
			"claimMappings": map[string]any{
				"username": map[string]any{"claim": "sub", "prefix": "iam:"},
				"groups":   map[string]any{"expression": `has(claims.orgs) ? dyn(claims.orgs).map(o, string(o.org) + ":" + string(o.role)) : []`},
			},
		}},
	}
	b, _ := yaml.Marshal(cfg) // a map of plain values always marshals
	return b
}

// TestClusterActsAsTheIAMUser: a real kube-apiserver that trusts the test
// issuer sees the board's requests as the IAM user. An OrgAdmin of acme
// restarts an App in tenant-acme as itself, is refused in hanzo, and a plain
// member is refused.
func TestClusterActsAsTheIAMUser(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	other := testidp.Start(t, testidp.Options{}) // an issuer the cluster does not trust
	cl := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iamAuthenticationConfig(idp.Issuer, idp.CAPEM())})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cl.CreateNamespaces("tenant-acme", "hanzo")
	for _, ns := range []string{"tenant-acme", "hanzo"} {
		if err := cl.SeedApp(ctx, ns, "web", "service", "ghcr.io/hanzoai/web", "v1.0.0", 1); err != nil {
			t.Fatal(err)
		}
	}
	grantOrgAdmins(ctx, t, cl.AdminClient(), "tenant-acme", "acme")

	alice := newSession(idp, t.TempDir(), nil)
	browserLogin(t, idp, alice, "alice", "alice-pw")
	bob := newSession(idp, t.TempDir(), nil)
	browserLogin(t, idp, bob, "bob", "bob-pw")

	aliceKube := iamClients(t, cl, alice, nil)
	waitAuthenticated(ctx, t, aliceKube.Kube, "iam:u-alice", "acme:owner")

	// A token of an issuer the cluster does not trust: 401, reported in plain words.
	stranger := newSession(other, t.TempDir(), nil)
	browserLogin(t, other, stranger, "alice", "alice-pw")
	var rejected atomic.Pointer[auth.ClusterRejectedError]
	strangerKube := iamClients(t, cl, stranger, func(e *auth.ClusterRejectedError) { rejected.Store(e) })
	_, err := strangerKube.Kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if !apierrors.IsUnauthorized(err) || rejected.Load() == nil || rejected.Load().Issuer != other.Issuer {
		t.Fatalf("untrusted issuer: err = %v, reported = %v", err, rejected.Load())
	}

	fleet := kube.NewFleet(kube.FleetOptions{Namespaces: []string{"tenant-acme", "hanzo"}, Principal: principalOf(alice)}, aliceKube)
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	fleet.Start(fctx)
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	if err := fleet.WaitSynced(sctx); err != nil {
		t.Fatalf("fleet as alice: %v", err)
	}
	acmeWeb := model.Key{Cluster: "iam", Namespace: "tenant-acme", Name: "web"}
	if err := fleet.Restart(ctx, acmeWeb); err != nil {
		t.Fatalf("OrgAdmin of acme restarting tenant-acme/web: %v", err)
	}
	dep, err := cl.AdminClient().AppsV1().Deployments("tenant-acme").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || dep.Spec.Template.Annotations[model.RestartedByAnnotation] != "iam:u-alice" {
		t.Fatalf("restartedBy on tenant-acme/web = %q (%v), want iam:u-alice", dep.Spec.Template.Annotations[model.RestartedByAnnotation], err)
	}
	waitAudit(t, cl, "iam:u-alice", "tenant-acme", "web")
	events, err := cl.AdminClient().CoreV1().Events("tenant-acme").List(ctx, metav1.ListOptions{})
	if err != nil || !slices.ContainsFunc(events.Items, func(e corev1.Event) bool {
		return e.Reason == "Restarted" && strings.Contains(e.Message, "alice")
	}) {
		t.Errorf("no Restarted Event naming alice in tenant-acme (%v)", err)
	}

	var refused *kube.RefusedError
	if err := fleet.Restart(ctx, model.Key{Cluster: "iam", Namespace: "hanzo", Name: "web"}); !errors.As(err, &refused) {
		t.Errorf("OrgAdmin of acme restarting hanzo/web: err = %v, want refused", err)
	}
	if dep, err := cl.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "web", metav1.GetOptions{}); err != nil ||
		dep.Spec.Template.Annotations[model.RestartedByAnnotation] != "" {
		t.Errorf("hanzo/web was restarted anyway (%v)", err)
	}

	bobKube := iamClients(t, cl, bob, nil)
	bobFleet := kube.NewFleet(kube.FleetOptions{Principal: principalOf(bob)}, bobKube)
	if err := bobFleet.Restart(ctx, acmeWeb); !errors.As(err, &refused) || !strings.Contains(err.Error(), "member") {
		t.Errorf("member restarting tenant-acme/web: err = %v, want refused as a member", err)
	}
	// And the API server itself knows bob as iam:u-bob and refuses him.
	_, err = bobKube.Kube.AppsV1().Deployments("tenant-acme").Patch(ctx, "web", types.MergePatchType,
		[]byte(`{"spec":{"template":{"metadata":{"annotations":{"x":"y"}}}}}`), metav1.PatchOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "iam:u-bob") {
		t.Errorf("member patching directly: err = %v, want Forbidden for iam:u-bob", err)
	}
}

// iamClients are clients whose every request carries the session's token.
// No client certificate: the API server would prefer it to the token.
func iamClients(t *testing.T, cl *testcluster.Cluster, s *auth.Session, onRejected func(*auth.ClusterRejectedError)) kube.ClusterClients {
	t.Helper()
	wrap, err := s.WrapTransport(cl.Host(), onRejected)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &rest.Config{
		Host:            cl.Host(),
		TLSClientConfig: rest.TLSClientConfig{CAData: cl.AdminConfig().TLSClientConfig.CAData},
		WrapTransport:   wrap,
	}
	kc, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return kube.ClusterClients{Name: "iam", Kube: kc, Dynamic: dc, Identity: model.ClusterIdentity{IAM: true}}
}

func principalOf(s *auth.Session) func() *model.Principal {
	return func() *model.Principal {
		p, err := s.Principal(context.Background())
		if err != nil {
			return nil
		}
		return p
	}
}

// grantOrgAdmins lets the groups <org>:owner and <org>:admin watch the board's
// resources in ns and restart workloads there.
func grantOrgAdmins(ctx context.Context, t *testing.T, admin kubernetes.Interface, ns, org string) {
	t.Helper()
	read := []string{"get", "list", "watch"}
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "driftboard-operator", Namespace: ns}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"hanzo.ai"}, Resources: []string{"apps", "services"}, Verbs: read},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets"}, Verbs: append(read, "patch")},
		{APIGroups: []string{"apps"}, Resources: []string{"replicasets"}, Verbs: read},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: read},
		{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create"}},
	}}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "driftboard-operator", Namespace: ns},
		RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: role.Name},
		Subjects: []rbacv1.Subject{
			{APIGroup: "rbac.authorization.k8s.io", Kind: "Group", Name: org + ":owner"},
			{APIGroup: "rbac.authorization.k8s.io", Kind: "Group", Name: org + ":admin"},
		}}
	if _, err := admin.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitAuthenticated polls until the API server authenticates the token as
// user in group (its JWT authenticator fetches the issuer's keys lazily).
func waitAuthenticated(ctx context.Context, t *testing.T, kc kube.TypedClients, user, group string) {
	t.Helper()
	var last error
	for ctx.Err() == nil {
		r, err := kc.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err == nil {
			u := r.Status.UserInfo
			if u.Username != user || !slices.Contains(u.Groups, group) {
				t.Fatalf("the API server sees %q in %v, want %q in %q", u.Username, u.Groups, user, group)
			}
			return
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the API server never accepted the IAM token: %v", last)
}

// waitAudit finds the audit event of user's patch of the deployment.
func waitAudit(t *testing.T, cl *testcluster.Cluster, user, ns, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		events, _ := cl.AuditEvents()
		for _, ev := range events {
			if ev.Verb == "patch" && ev.User.Username == user && ev.ObjectRef != nil && ev.ObjectRef.Resource == "deployments" &&
				ev.ObjectRef.Namespace == ns && ev.ObjectRef.Name == name && ev.ResponseStatus != nil && ev.ResponseStatus.Code == 200 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("no audit event of %s patching deployment %s/%s", user, ns, name)
}
