package e2e

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/internal/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// issuer is the smallest OIDC provider the API server accepts: discovery,
// one ES256 key, tokens with a chosen expiry.
type issuer struct {
	srv *httptest.Server
	key *ecdsa.PrivateKey
}

func newIssuer(t *testing.T) *issuer {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	iss := &issuer{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": iss.srv.URL, "jwks_uri": iss.srv.URL + "/jwks",
			"id_token_signing_alg_values_supported": []string{"ES256"}})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		pub, _ := key.PublicKey.ECDH()
		raw := pub.Bytes()
		enc := base64.RawURLEncoding.EncodeToString
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig", "x": enc(raw[1:33]), "y": enc(raw[33:]),
		}}})
	})
	iss.srv = httptest.NewTLSServer(mux)
	t.Cleanup(iss.srv.Close)
	return iss
}

func (i *issuer) token(subject string, exp time.Time) string {
	enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
	head := enc(map[string]string{"alg": "ES256", "kid": "k1", "typ": "JWT"})
	body := enc(map[string]any{"iss": i.srv.URL, "aud": "hanzo-cli", "sub": subject,
		"iat": time.Now().Add(-time.Minute).Unix(), "exp": exp.Unix()})
	digest := sha256.Sum256([]byte(head + "." + body))
	r, s, _ := ecdsa.Sign(rand.Reader, i.key, digest[:])
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return head + "." + body + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func (i *issuer) authConfig() []byte {
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: i.srv.Certificate().Raw})
	b, _ := yaml.Marshal(map[string]any{
		"apiVersion": "apiserver.config.k8s.io/v1", "kind": "AuthenticationConfiguration",
		"jwt": []any{map[string]any{
			"issuer":        map[string]any{"url": i.srv.URL, "audiences": []string{"hanzo-cli"}, "certificateAuthority": string(ca)},
			"claimMappings": map[string]any{"username": map[string]any{"claim": "sub", "prefix": "iam:"}},
		}},
	})
	return b
}

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
	iss := newIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.authConfig()})
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
	token.Store(iss.token("alice", expiry))
	cfg := c.AdminConfig()
	cfg.CertData, cfg.KeyData = nil, nil
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return bearer{next: rt, token: &token} })
	f := startFleet(t, rest.CopyConfig(cfg), kube.FleetOptions{})
	waitBoard(t, f, 30*time.Second, "the board live as alice", func(s *model.Snapshot) bool {
		return phaseOf(s) == model.ConnLive && len(s.Rows) == 10
	})

	time.Sleep(time.Until(expiry) + time.Second)
	killAPIServer(t, c)
	c.StartAPIServer()
	snap := waitBoard(t, f, 60*time.Second, "the board to say the credentials were rejected", func(s *model.Snapshot) bool {
		for _, cl := range s.Clusters {
			if cl.Name == clusterName && cl.Phase == model.ConnReconnecting && strings.Contains(cl.Reason, "unauthorized") {
				return true
			}
		}
		return false
	})
	for _, r := range snap.Rows {
		if !r.Stale {
			t.Fatalf("row %s shown live with an expired token", r.Key())
		}
	}
	t.Logf("with the token expired: %s", describe(snap))

	token.Store(iss.token("alice", time.Now().Add(time.Hour))) // logged in again
	assertConverged(t, c, f, 90*time.Second)
}
