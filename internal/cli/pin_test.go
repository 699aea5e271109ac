package cli

import (
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestConfiguredContextTrustIsPinnedToItsServer: iam.clusters in the config
// file names a context; a kubeconfig that gives that name another server
// (here a TLS server recording Authorization headers) does not get the IAM
// token. A bare name is never enough (the notice says what to pin); a
// pinned name gets it only at its pinned server.
func TestConfiguredContextTrustIsPinnedToItsServer(t *testing.T) {
	iss := startIssuer(t)
	token := iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "owner"})
	var got atomic.Int32
	var asked atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if strings.Contains(r.Header.Get("Authorization"), token) {
			got.Add(1)
		}
		http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	kubeconfig := writeFile(t, t.TempDir(), "kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: prod
clusters:
- {name: p, cluster: {server: %q, certificate-authority-data: %s}}
users:
- {name: u, user: {token: kubeconfig-token}}
contexts:
- {name: prod, context: {cluster: p, user: u}}
`, srv.URL, ca))
	for _, c := range []struct {
		name, entry string
		wantToken   bool
		stderr      string
	}{
		{"bare name", "prod", false, "pin it: prod=" + srv.URL},
		{"pinned elsewhere", "prod=https://k8s.prod.example:6443", false, "pins context prod to https://k8s.prod.example:6443"},
		{"pinned here", "prod=" + srv.URL, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got.Store(0)
			asked.Store(0)
			e := newEnv(t)
			e.loginAs(iss, token)
			writeFile(t, filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard"), "config.yaml",
				fmt.Sprintf("iam:\n  clusters: [%q]\n", c.entry))
			r := e.run(t, "restart", "iam", "--env", "test", "--yes", "--kubeconfig", kubeconfig, "--releases=off", "--timeout", "5s")
			if asked.Load() == 0 {
				t.Fatalf("the API server was never asked anything:\n%s", r.err)
			}
			if n := got.Load(); (n > 0) != c.wantToken {
				t.Errorf("requests with the IAM token: %d, want any: %v\n%s", n, c.wantToken, r.err)
			}
			if c.stderr != "" && !strings.Contains(r.err, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, r.err)
			}
		})
	}
}
