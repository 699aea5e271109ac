package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestCommandsNeverSendTheTokenToUntrustedServers: logged in with a valid
// IAM token, `list --all-contexts` and `restart` against a plain-http "API
// server", a TLS one used through insecure-skip-tls-verify (both declared
// trusted) and an undeclared one: none of them ever receives the token.
func TestCommandsNeverSendTheTokenToUntrustedServers(t *testing.T) {
	iss := startIssuer(t)
	token := iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "owner"})
	var mu sync.Mutex
	var leaks []string
	asked := map[string]int{}
	record := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked[name]++
			mu.Unlock()
			if strings.Contains(r.Header.Get("Authorization"), token) {
				mu.Lock()
				leaks = append(leaks, name+" "+r.URL.Path)
				mu.Unlock()
			}
			http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}`, http.StatusUnauthorized)
		})
	}
	plain := httptest.NewServer(record("plain"))
	defer plain.Close()
	insecure := httptest.NewTLSServer(record("insecure"))
	defer insecure.Close()
	undeclared := httptest.NewTLSServer(record("undeclared"))
	defer undeclared.Close()
	kubeconfig := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: plain
clusters:
- {name: p, cluster: {server: %q}}
- {name: i, cluster: {server: %q, insecure-skip-tls-verify: true}}
- {name: u, cluster: {server: %q, insecure-skip-tls-verify: true}}
users:
- {name: u, user: {token: kubeconfig-token}}
contexts:
- {name: plain, context: {cluster: p, user: u}}
- {name: insecure, context: {cluster: i, user: u}}
- {name: undeclared, context: {cluster: u, user: u}}
`, plain.URL, insecure.URL, undeclared.URL)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.loginAs(iss, token)
	base := []string{"--kubeconfig", path, "--releases=off", "--iam-cluster", "plain", "--iam-cluster", "insecure", "--timeout", "5s"}
	e.run(t, append([]string{"list", "--all-contexts"}, base...)...)
	r := e.run(t, append([]string{"restart", "iam", "--env", "test", "--yes", "--all-contexts"}, base...)...)
	if r.code == ExitOK {
		t.Errorf("restart succeeded against servers that never authenticated anyone:\n%s", r.err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaks) > 0 {
		t.Errorf("the IAM token reached: %q", leaks)
	}
	for _, name := range []string{"plain", "insecure", "undeclared"} {
		if asked[name] == 0 {
			t.Errorf("%s was never asked anything: the commands did not run (restart stderr:\n%s)", name, r.err)
		}
	}
}
