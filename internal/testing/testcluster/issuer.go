package testcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// Issuer is the smallest OpenID provider the API server and go-oidc accept:
// discovery, a JWKS with one ES256 key, and tokens signed by it.
type Issuer struct {
	t   testing.TB
	srv *httptest.Server
	key *ecdsa.PrivateKey
}

// NewIssuer serves an issuer over TLS (the API server only trusts https
// issuers; CAPEM is its certificate). It stops when the test ends.
func NewIssuer(t testing.TB) *Issuer { return newIssuer(t, true) }

// NewHTTPIssuer serves an issuer over plain HTTP on loopback, for clients in
// the test process that verify tokens with the system's trust roots.
func NewHTTPIssuer(t testing.TB) *Issuer { return newIssuer(t, false) }

func newIssuer(t testing.TB, tls bool) *Issuer {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	iss := &Issuer{t: t, key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		url := iss.URL()
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": url, "jwks_uri": url + "/jwks",
			"authorization_endpoint": url + "/authorize", "token_endpoint": url + "/token",
			"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"id_token_signing_alg_values_supported": []string{"ES256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		pub, _ := key.PublicKey.ECDH()
		raw := pub.Bytes() // 0x04 || X || Y
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig",
			"x": b64url(raw[1:33]), "y": b64url(raw[33:]),
		}}})
	})
	if tls {
		iss.srv = httptest.NewTLSServer(mux)
	} else {
		iss.srv = httptest.NewServer(mux)
	}
	t.Cleanup(iss.srv.Close)
	return iss
}

// URL is the issuer identifier (the "iss" claim).
func (i *Issuer) URL() string { return i.srv.URL }

// CAPEM is the PEM certificate of a TLS issuer, "" for a plain HTTP one.
func (i *Issuer) CAPEM() string {
	if i.srv.TLS == nil {
		return ""
	}
	return string(encodePEM("CERTIFICATE", i.srv.Certificate().Raw))
}

// AuthenticationConfig is an apiserver.config.k8s.io/v1
// AuthenticationConfiguration trusting this issuer for audience, mapping the
// "sub" claim to usernamePrefix+sub.
func (i *Issuer) AuthenticationConfig(audience, usernamePrefix string) []byte {
	b, err := yaml.Marshal(map[string]any{
		"apiVersion": "apiserver.config.k8s.io/v1", "kind": "AuthenticationConfiguration",
		"jwt": []any{map[string]any{
			"issuer":        map[string]any{"url": i.URL(), "audiences": []string{audience}, "certificateAuthority": i.CAPEM()},
			"claimMappings": map[string]any{"username": map[string]any{"claim": "sub", "prefix": usernamePrefix}},
		}},
	})
	if err != nil {
		i.t.Fatal(err)
	}
	return b
}

// Token signs claims (sub, aud and any others) expiring at expiry; iss, iat
// and nbf (a minute back, for clock skew) are filled in unless given.
func (i *Issuer) Token(claims map[string]any, expiry time.Time) string {
	back := time.Now().Add(-time.Minute).Unix()
	body := map[string]any{"iss": i.URL(), "iat": back, "nbf": back}
	for k, v := range claims {
		body[k] = v
	}
	body["exp"] = expiry.Unix()
	header := i.encode(map[string]string{"alg": "ES256", "kid": "k1", "typ": "JWT"})
	payload := i.encode(body)
	digest := sha256.Sum256([]byte(header + "." + payload))
	r, s, err := ecdsa.Sign(rand.Reader, i.key, digest[:])
	if err != nil {
		i.t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return header + "." + payload + "." + b64url(sig)
}

func (i *Issuer) encode(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		i.t.Fatal(err)
	}
	return b64url(data)
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
