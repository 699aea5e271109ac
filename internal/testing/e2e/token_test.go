package e2e

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// bearer sends whatever token the session holds now, like auth's
// RoundTripper does with the ~/.hanzo token.
type bearer struct {
	next  http.RoundTripper
	token *atomic.Value
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token.Load().(string))
	return b.next.RoundTrip(r)
}

// The IAM token expires during a session and the API server restarts, so
// every watch must authenticate again: the cluster says the credentials
// were rejected, rows go stale (nothing crashes, nothing is shown live),
// and once a fresh token is in the session the board recovers by itself.
func TestTokenExpiryDuringSession(t *testing.T) {
	t.Parallel()
	iss := testcluster.NewIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo")
	seedApps(t, c, "hanzo", names("svc", 10), "v1.0.0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "iam-alice"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "iam:alice"}}}
	if _, err := c.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	var token atomic.Value
	expiry := time.Now().Add(10 * time.Second)
	token.Store(iss.Token(map[string]any{"sub": "alice", "aud": "hanzo-cli"}, expiry))
	cfg := c.AdminConfig()
	cfg.CertData, cfg.KeyData = nil, nil
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return bearer{next: rt, token: &token} })
	f := startFleet(t, rest.CopyConfig(cfg), kube.FleetOptions{})
	waitBoard(t, f, 30*time.Second, "the board live as alice", func(s *store.Snapshot) bool {
		return phaseOf(s) == model.ConnLive && s.Len() == 10
	})

	time.Sleep(time.Until(expiry) + time.Second)
	c.KillAPIServer()
	c.StartAPIServer()
	snap := waitBoard(t, f, 60*time.Second, "the board to say the credentials were rejected", func(s *store.Snapshot) bool {
		for _, cl := range s.Clusters {
			if cl.Name == clusterName && cl.Phase == model.ConnReconnecting && strings.Contains(cl.Reason, "unauthorized") {
				return true
			}
		}
		return false
	})
	for _, r := range snap.Rows() {
		if !r.Offline {
			t.Fatalf("row %s shown live with an expired token", r.Key())
		}
	}
	t.Logf("with the token expired: %s", describe(snap))

	token.Store(iss.Token(map[string]any{"sub": "alice", "aud": "hanzo-cli"}, time.Now().Add(time.Hour))) // logged in again
	assertConverged(t, c, f, 90*time.Second)
}
