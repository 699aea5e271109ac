package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// TestActPinsOneVerifiedToken: a request made under Act's context carries
// the token Act verified even after the stored login changed; the next Act
// sees (and verifies) the new login; a token that fails verification is
// never sent.
func TestActPinsOneVerifiedToken(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	browserLogin(t, idp, s, "alice", "alice-pw")

	var mu sync.Mutex
	var seen []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
	}))
	defer srv.Close()
	wrap, err := s.WrapTransport(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: wrap(srv.Client().Transport)}
	get := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}

	ctx, p, err := s.Act(context.Background())
	if err != nil || p == nil || p.User != "alice" {
		t.Fatalf("Act: principal %+v, %v", p, err)
	}
	aliceToken := readCreds(t, dir).AccessToken
	// Another terminal logs in as bob into the same store.
	browserLogin(t, idp, newSession(idp, dir, nil), "bob", "bob-pw")
	if err := get(ctx); err != nil {
		t.Fatal(err)
	}
	_, p2, err := s.Act(context.Background())
	if err != nil || p2 == nil || p2.User != "bob" {
		t.Fatalf("the next action did not see the new login: %+v, %v", p2, err)
	}
	mu.Lock()
	if len(seen) != 1 || seen[0] != "Bearer "+aliceToken {
		t.Errorf("the action's request did not carry the token it verified")
	}
	mu.Unlock()

	// A token the issuer did not sign is neither acted with nor sent.
	c := readCreds(t, dir)
	parts := strings.Split(c.AccessToken, ".")
	forged := parts[0] + "." + parts[1] + ".AAAA"
	writeFile(t, dir, "credentials.json", fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expiry":%d}`, forged, time.Now().Add(time.Hour).Unix()))
	if _, _, err := s.Act(context.Background()); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("Act with a forged token: %v, want ErrInvalidToken", err)
	}
	if err := get(context.Background()); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("request with a forged token: %v, want ErrInvalidToken", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(seen, "Bearer "+forged) {
		t.Error("the forged token was sent")
	}
}

// TestRestartRecordsWhoTheAPIServerAuthenticated: the restart's check asks
// the API server (SelfSubjectReview, with the action's token) who acts; the
// dialog's decision, restartedBy and the Event name that user, with the IAM
// display name beside it. A login changed to a plain member before the
// restart is seen and refused, nothing patched.
func TestRestartRecordsWhoTheAPIServerAuthenticated(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	cl := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iamAuthenticationConfig(idp.Issuer, idp.CAPEM())})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cl.CreateNamespaces("tenant-acme")
	if err := cl.SeedApp(ctx, "tenant-acme", "web", "service", "ghcr.io/hanzoai/web", "v1.0.0", 1); err != nil {
		t.Fatal(err)
	}
	grantOrgAdmins(ctx, t, cl.AdminClient(), "tenant-acme", "acme")
	// An org whose name is not a DNS label: the platform hashes the
	// namespace name and labels the namespace with the real org.
	hashed := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "tenant-acme-corp-3f2a", Labels: map[string]string{model.NamespaceOrgLabel: "acme"}}}
	if _, err := cl.AdminClient().CoreV1().Namespaces().Create(ctx, hashed, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cl.SeedApp(ctx, hashed.Name, "web", "service", "ghcr.io/hanzoai/web", "v1.0.0", 1); err != nil {
		t.Fatal(err)
	}
	grantOrgAdmins(ctx, t, cl.AdminClient(), hashed.Name, "acme")
	readNamespaces(ctx, t, cl, "acme:owner")
	dir := t.TempDir()
	alice := newSession(idp, dir, nil)
	browserLogin(t, idp, alice, "alice", "alice-pw")
	clients := iamClients(t, cl, alice, nil)
	waitAuthenticated(ctx, t, clients.Kube, "iam:u-alice", "acme:owner")

	fleet := kube.NewFleet(kube.FleetOptions{Namespaces: []string{"tenant-acme", hashed.Name}, Act: alice.Act}, clients)
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	fleet.Start(fctx)
	if err := fleet.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
	if d := fleet.CheckRestart(ctx, model.Key{Cluster: "iam", Namespace: hashed.Name, Name: "web"}); !d.Allowed {
		t.Errorf("OrgAdmin of acme in %s (labelled %s=acme): refused: %s", hashed.Name, model.NamespaceOrgLabel, d.Reason)
	}
	key := model.Key{Cluster: "iam", Namespace: "tenant-acme", Name: "web"}
	d := fleet.CheckRestart(ctx, key)
	if !d.Allowed || d.Actor == nil || d.Actor.Username != "iam:u-alice" || !slices.Contains(d.Actor.Groups, "acme:owner") ||
		!strings.Contains(d.Reason, "iam:u-alice (alice)") {
		t.Fatalf("decision %+v (actor %+v), want allowed for iam:u-alice in acme:owner", d, d.Actor)
	}
	res, err := fleet.RestartWith(ctx, key, kube.RestartOptions{})
	if err != nil || res.By != "iam:u-alice" {
		t.Fatalf("restart: by %q, %v", res.By, err)
	}
	dep, err := cl.AdminClient().AppsV1().Deployments("tenant-acme").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || dep.Spec.Template.Annotations[model.RestartedByAnnotation] != "iam:u-alice" {
		t.Fatalf("restartedBy = %q (%v), want iam:u-alice", dep.Spec.Template.Annotations[model.RestartedByAnnotation], err)
	}
	events, err := cl.AdminClient().CoreV1().Events("tenant-acme").List(ctx, metav1.ListOptions{})
	if err != nil || !slices.ContainsFunc(events.Items, func(e corev1.Event) bool {
		return strings.Contains(e.Message, "requested by iam:u-alice (alice)")
	}) {
		t.Errorf("no Event naming iam:u-alice (alice) (%v)", err)
	}

	// Another terminal: bob (a member of acme) logs in to the same store.
	browserLogin(t, idp, newSession(idp, dir, nil), "bob", "bob-pw")
	before := dep.Spec.Template.Annotations[model.RestartedAtAnnotation]
	time.Sleep(1100 * time.Millisecond) // a second restart would change restartedAt
	var refused *kube.RefusedError
	if _, err := fleet.RestartWith(ctx, key, kube.RestartOptions{}); !errors.As(err, &refused) || !strings.Contains(err.Error(), "member") {
		t.Errorf("restart after the login changed to bob: %v, want refused as a member", err)
	}
	dep, _ = cl.AdminClient().AppsV1().Deployments("tenant-acme").Get(ctx, "web", metav1.GetOptions{})
	if got := dep.Spec.Template.Annotations[model.RestartedAtAnnotation]; got != before {
		t.Errorf("restarted again (%s → %s) after the login changed", before, got)
	}
}

// readNamespaces lets group get namespaces (their hanzo.ai/org label).
func readNamespaces(ctx context.Context, t *testing.T, cl *testcluster.Cluster, group string) {
	t.Helper()
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "read-namespaces"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get"}}}}
	b := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "read-namespaces"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "Group", Name: group}}}
	if _, err := cl.AdminClient().RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
