package testcluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// testIssuer is the smallest OIDC provider the API server accepts: discovery,
// a JWKS with one ES256 key, and tokens signed by it.
type testIssuer struct {
	srv *httptest.Server
	key *ecdsa.PrivateKey
}

func newTestIssuer(t *testing.T) *testIssuer {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	iss := &testIssuer{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": iss.srv.URL, "jwks_uri": iss.srv.URL + "/jwks",
			"id_token_signing_alg_values_supported": []string{"ES256"}})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		pub, _ := key.PublicKey.ECDH()
		raw := pub.Bytes() // 0x04 || X || Y
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig",
			"x": b64(raw[1:33]), "y": b64(raw[33:]),
		}}})
	})
	iss.srv = httptest.NewTLSServer(mux)
	t.Cleanup(iss.srv.Close)
	return iss
}

func (i *testIssuer) token(t *testing.T, subject, audience string) string {
	header := b64(mustJSON(t, map[string]string{"alg": "ES256", "kid": "k1", "typ": "JWT"}))
	now := time.Now()
	payload := b64(mustJSON(t, map[string]any{"iss": i.srv.URL, "aud": audience, "sub": subject,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}))
	digest := sha256.Sum256([]byte(header + "." + payload))
	r, s, err := ecdsa.Sign(rand.Reader, i.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return header + "." + payload + "." + b64(sig)
}

func (i *testIssuer) caPEM() string {
	return string(encodePEM("CERTIFICATE", i.srv.Certificate().Raw))
}

func TestSetAuthenticationConfigTakesEffectLive(t *testing.T) {
	issuer := newTestIssuer(t)
	c := Start(t, Options{OIDC: true})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cfg := c.AdminConfig()
	cfg.CertData, cfg.KeyData = nil, nil
	cfg.BearerToken = issuer.token(t, "alice", "driftboard-test")
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whoami := func() (string, error) {
		r, err := client.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			return "", err
		}
		return r.Status.UserInfo.Username, nil
	}
	if _, err := whoami(); !apierrors.IsUnauthorized(err) {
		t.Fatalf("token accepted before its issuer was configured: err = %v", err)
	}

	if err := c.SetAuthenticationConfig([]byte("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: [{issuer: {}}]\n")); err == nil {
		t.Error("an invalid authentication config was reported as applied")
	}
	config := fmt.Sprintf(`apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: %s
    audiences: [driftboard-test]
    certificateAuthority: |
%s
  claimMappings:
    username:
      claim: sub
      prefix: "oidc:"
`, issuer.srv.URL, indent(issuer.caPEM(), "      "))
	if err := c.SetAuthenticationConfig([]byte(config)); err != nil {
		t.Fatal(err)
	}
	user, err := whoami()
	if err != nil {
		t.Fatalf("token refused after SetAuthenticationConfig: %v", err)
	}
	if user != "oidc:alice" {
		t.Errorf("username = %q, want oidc:alice", user)
	}
}

func TestSetAuthenticationConfigNeedsOIDC(t *testing.T) {
	c := &Cluster{opts: Options{}}
	if err := c.SetAuthenticationConfig([]byte(emptyAuthenticationConfig)); err == nil {
		t.Error("SetAuthenticationConfig succeeded on a cluster started without OIDC")
	}
}

func TestMissingBinariesAreReported(t *testing.T) {
	t.Setenv(EnvVar, t.TempDir())
	if _, err := findBinDir(); err == nil {
		t.Error("findBinDir found binaries in an empty folder")
	}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func mustJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix)
}
