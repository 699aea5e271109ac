package auth_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
	case "store":
		os.Exit(storeChild())
	default:
		os.Exit(refreshChild())
	}
	os.Exit(m.Run())
}

// newSession is a session on idp with its store in dir.
func newSession(idp *testidp.Server, dir string, now func() time.Time) *auth.Session {
	return auth.NewSession(auth.Options{
		Settings:   auth.Settings{Issuer: idp.Issuer, ClientID: "hanzo-cli"},
		Store:      auth.NewStore(dir),
		HTTPClient: idp.HTTPClient(),
		Now:        now,
	})
}

// browserLogin logs user in with authorization code + PKCE, the user's
// browser driven by a cookie-jar client.
func browserLogin(t *testing.T, idp *testidp.Server, s *auth.Session, user, password string) auth.WhoAmI {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errs := make(chan error, 1)
	who, err := s.Login(ctx, auth.LoginOptions{
		OpenBrowser: func(u string) error {
			go func() { errs <- idp.Browser().LoginCode(ctx, u, user, password) }()
			return nil
		},
	})
	if err != nil {
		t.Fatalf("browser login: %v", err)
	}
	if err := <-errs; err != nil {
		t.Fatalf("browser: %v", err)
	}
	return who
}

// clientTrusting builds an HTTP client that trusts the PEM in file.
func clientTrusting(file string) (*http.Client, error) {
	pemBytes, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemBytes)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}, nil
}

func readCreds(t *testing.T, dir string) *auth.Credentials {
	t.Helper()
	c, err := auth.NewStore(dir).Load()
	if err != nil {
		t.Fatalf("load store: %v", err)
	}
	return c
}

func writeFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
