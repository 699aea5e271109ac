package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// testIssuer is a minimal OIDC issuer on loopback (plain HTTP, as auth uses
// the system trust roots), so the real token verification in auth runs
// against real signatures. It mints tokens directly; the login flows
// themselves are tested in auth against a full OpenID Provider.
type testIssuer struct{ *testcluster.Issuer }

func startIssuer(t *testing.T) *testIssuer {
	t.Helper()
	return &testIssuer{testcluster.NewHTTPIssuer(t)}
}

type orgRole struct {
	Org  string `json:"org"`
	Role string `json:"role"`
}

// token mints an access token for the hanzo-cli client.
func (i *testIssuer) token(t *testing.T, sub, email string, orgs ...orgRole) string {
	t.Helper()
	return i.Token(map[string]any{
		"sub": sub, "aud": []string{"hanzo-cli"},
		"email": email, "preferred_username": email, "orgs": orgs,
	}, time.Now().Add(time.Hour))
}

// loginAs makes e logged in (through HANZO_TOKEN, as CI would) at iss.
func (e *cliEnv) loginAs(iss *testIssuer, token string) {
	e.vars["HANZO_IAM_ISSUER"] = iss.URL()
	e.vars["HANZO_TOKEN"] = token
}

// startTLSIssuer serves the test issuer over TLS: the API server trusts
// only https issuers. trustIssuerCA lets the CLI verify it.
func startTLSIssuer(t *testing.T) *testIssuer {
	t.Helper()
	return &testIssuer{testcluster.NewIssuer(t)}
}

func (e *cliEnv) trustIssuerCA(t *testing.T, iss *testIssuer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "issuer-ca.pem")
	if err := os.WriteFile(path, []byte(iss.CAPEM()), 0o600); err != nil {
		t.Fatal(err)
	}
	e.vars["SSL_CERT_FILE"] = path
}
