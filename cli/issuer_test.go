package cli

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// testIssuer is a minimal OIDC issuer on loopback: discovery and signing
// keys, so the real token verification in auth runs against real
// signatures. It mints tokens directly; the login flows themselves are
// tested in auth against a full OpenID Provider.
type testIssuer struct {
	url    string
	signer jose.Signer
}

func startIssuer(t *testing.T) *testIssuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	iss := &testIssuer{signer: signer}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": iss.url, "jwks_uri": iss.url + "/jwks",
			"authorization_endpoint": iss.url + "/authorize", "token_endpoint": iss.url + "/token",
			"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"},
		}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	iss.url = srv.URL
	return iss
}

type orgRole struct {
	Org  string `json:"org"`
	Role string `json:"role"`
}

// token mints an access token for the hanzo-cli client.
func (i *testIssuer) token(t *testing.T, sub, email string, orgs ...orgRole) string {
	t.Helper()
	now := time.Now()
	std := jwt.Claims{
		Issuer: i.url, Subject: sub, Audience: jwt.Audience{"hanzo-cli"},
		IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now.Add(-time.Minute)),
		Expiry: jwt.NewNumericDate(now.Add(time.Hour)),
	}
	extra := map[string]any{"email": email, "preferred_username": email, "orgs": orgs}
	raw, err := jwt.Signed(i.signer).Claims(std).Claims(extra).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// loginAs makes e logged in (through HANZO_TOKEN, as CI would) at iss.
func (e *cliEnv) loginAs(iss *testIssuer, token string) {
	e.vars["HANZO_IAM_ISSUER"] = iss.url
	e.vars["HANZO_TOKEN"] = token
}
