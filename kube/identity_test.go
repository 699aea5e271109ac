package kube

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContextNamesSortedFromTheKubeconfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(twoContexts), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ContextNames(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "broken"}, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if _, err := ContextNames(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "load kubeconfig") {
		t.Errorf("missing kubeconfig: err %v", err)
	}
}

// whoAmIServer answers SelfSubjectReviews: requests carrying the IAM mark
// get iamUser (401 when empty), those with the kubeconfig token get kcUser
// (401 when empty). An IAM request that still carries the kubeconfig's
// credential fails the test.
func whoAmIServer(t *testing.T, iamUser, kcUser string) *httptest.Server {
	t.Helper()
	s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/apis/authentication.k8s.io/v1/selfsubjectreviews" {
			http.NotFound(w, r)
			return
		}
		user := kcUser
		if r.Header.Get("X-Test-Iam") != "" {
			user = iamUser
			if a := r.Header.Get("Authorization"); a != "" {
				t.Errorf("IAM request still carries the kubeconfig credential %q", a)
			}
		} else if r.Header.Get("Authorization") != "Bearer kc" {
			user = ""
		}
		w.Header().Set("Content-Type", "application/json")
		if user == "" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","status":{"userInfo":{"username":%q}}}`, user)
	}))
	t.Cleanup(s.Close)
	return s
}

func caData(s *httptest.Server) string {
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}))
}

type markIAM struct{ next http.RoundTripper }

func (m markIAM) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Test-Iam", "yes")
	return m.next.RoundTrip(r)
}

func TestConnectWithIdentityFallsBackOn401(t *testing.T) {
	trusting := whoAmIServer(t, "alice", "admin")
	untrusting := whoAmIServer(t, "", "admin")
	stranger := whoAmIServer(t, "", "") // not even the kubeconfig identity is known
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: trusting
clusters:
- {name: t, cluster: {server: %q, certificate-authority-data: %s}}
- {name: u, cluster: {server: %q, certificate-authority-data: %s}}
- {name: s, cluster: {server: %q, certificate-authority-data: %s}}
users:
- {name: admin-user, user: {token: kc}}
- {name: stranger-user, user: {token: kc}}
contexts:
- {name: trusting, context: {cluster: t, user: admin-user}}
- {name: untrusting, context: {cluster: u, user: admin-user}}
- {name: stranger, context: {cluster: s, user: stranger-user}}
`, trusting.URL, caData(trusting), untrusting.URL, caData(untrusting), stranger.URL, caData(stranger))
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}

	clients, failed := ConnectWithIdentity(context.Background(), ConnectOptions{Kubeconfig: path, AllContexts: true},
		func(rt http.RoundTripper) http.RoundTripper { return markIAM{rt} })
	if len(failed) != 0 {
		t.Fatalf("failed: %+v", failed)
	}
	got := map[string][]string{}
	for _, c := range clients {
		got[c.Name] = c.Notices
	}
	want := map[string][]string{
		"stranger":   {"IAM token not trusted by this cluster; using kubeconfig identity stranger-user"},
		"trusting":   nil,
		"untrusting": {"IAM token not trusted by this cluster; using kubeconfig identity admin"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notices by cluster (-want +got):\n%s", diff)
	}
	for _, c := range clients {
		who, err := WhoAmI(context.Background(), c)
		wantWho := map[string]string{"trusting": "alice", "untrusting": "admin"}[c.Name]
		if c.Name == "stranger" {
			if err == nil {
				t.Errorf("stranger: WhoAmI answered %q, want the 401", who)
			}
			continue
		}
		if err != nil || who != wantWho {
			t.Errorf("%s: WhoAmI = %q, %v; want %q", c.Name, who, err, wantWho)
		}
	}
}
