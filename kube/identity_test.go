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
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/auth"
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

const iamSecret = "iam-secret-token"

type staticToken string

func (s staticToken) Token(context.Context) (string, error) { return string(s), nil }

// recorder is a loopback "API server" that records every Authorization
// header it receives and answers SelfSubjectReviews: the IAM token gets
// iamUser (401 when empty), the kubeconfig token "kc" gets kcUser.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func (r *recorder) sawIAM() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.seen, "Bearer "+iamSecret)
}

func newRecorder(t *testing.T, tls bool, iamUser, kcUser string, handler http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := r.Header.Get("Authorization")
		rec.mu.Lock()
		rec.seen = append(rec.seen, a)
		rec.mu.Unlock()
		if handler != nil {
			handler(w, r)
			return
		}
		if r.URL.Path != "/apis/authentication.k8s.io/v1/selfsubjectreviews" {
			http.NotFound(w, r)
			return
		}
		user := map[string]string{"Bearer " + iamSecret: iamUser, "Bearer kc": kcUser}[a]
		w.Header().Set("Content-Type", "application/json")
		if user == "" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","status":{"userInfo":{"username":%q,"groups":["g"]}}}`, user)
	})
	if tls {
		rec.Server = httptest.NewTLSServer(h)
	} else {
		rec.Server = httptest.NewServer(h)
	}
	t.Cleanup(rec.Close)
	return rec
}

func caData(s *httptest.Server) string {
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}))
}

// TestConnectWithIdentitySendsTheTokenOnlyToTrustedClusters: only declared,
// https, verified API servers receive the IAM token. A plain-http one, one
// used through insecure-skip-tls-verify, an undeclared valid one and the
// host a declared one redirects to never see it, not even as a probe; each
// cluster says which identity reads it.
func TestConnectWithIdentitySendsTheTokenOnlyToTrustedClusters(t *testing.T) {
	trusting := newRecorder(t, true, "iam:alice", "admin", nil)
	rejecting := newRecorder(t, true, "", "admin", nil)
	undeclared := newRecorder(t, true, "iam:alice", "admin", nil)
	plain := newRecorder(t, false, "iam:alice", "admin", nil)
	insecure := newRecorder(t, true, "iam:alice", "admin", nil)
	elsewhere := newRecorder(t, true, "iam:alice", "admin", nil)
	redirecting := newRecorder(t, true, "", "", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
	})
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: trusting
clusters:
- {name: t, cluster: {server: %q, certificate-authority-data: %s}}
- {name: r, cluster: {server: %q, certificate-authority-data: %s}}
- {name: u, cluster: {server: %q, certificate-authority-data: %s}}
- {name: p, cluster: {server: %q}}
- {name: i, cluster: {server: %q, insecure-skip-tls-verify: true}}
- {name: x, cluster: {server: %q, certificate-authority-data: %s}}
users:
- {name: admin-user, user: {token: kc}}
contexts:
- {name: trusting, context: {cluster: t, user: admin-user}}
- {name: rejecting, context: {cluster: r, user: admin-user}}
- {name: undeclared, context: {cluster: u, user: admin-user}}
- {name: plain, context: {cluster: p, user: admin-user}}
- {name: insecure, context: {cluster: i, user: admin-user}}
- {name: redirecting, context: {cluster: x, user: admin-user}}
`, trusting.URL, caData(trusting.Server), rejecting.URL, caData(rejecting.Server), undeclared.URL, caData(undeclared.Server),
		plain.URL, insecure.URL, redirecting.URL, caData(redirecting.Server))
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	declared := []string{"trusting", "rejecting", "plain", "insecure", "redirecting"}
	iam := IAMIdentity{
		Issuer:  "https://idp.test",
		Trusted: func(ctx, server string) (bool, string) { return slices.Contains(declared, ctx), "" },
		Wrap: func(server string) (func(http.RoundTripper) http.RoundTripper, error) {
			return func(rt http.RoundTripper) http.RoundTripper {
				t, err := auth.Transport(rt, staticToken(iamSecret), server, nil)
				if err != nil {
					panic(err)
				}
				return t
			}, nil
		},
	}
	clients, failed := ConnectWithIdentity(context.Background(), ConnectOptions{Kubeconfig: path, AllContexts: true}, iam)
	if len(failed) != 0 {
		t.Fatalf("failed: %+v", failed)
	}
	got := map[string]bool{}
	for _, c := range clients {
		got[c.Name] = c.Identity.IAM
		if len(c.Notices) == 0 || c.Notices[0] != c.Identity.Describe() {
			t.Errorf("%s: notices %q do not start with its identity", c.Name, c.Notices)
		}
		// Every client is used once more, as the board would.
		_, _ = WhoAmI(context.Background(), c)
	}
	want := map[string]bool{"trusting": true, "rejecting": false, "undeclared": false, "plain": false, "insecure": false, "redirecting": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IAM identity by cluster (-want +got):\n%s", diff)
	}
	for name, r := range map[string]*recorder{"undeclared": undeclared, "plain": plain, "insecure": insecure, "elsewhere (302 target)": elsewhere} {
		if r.sawIAM() {
			t.Errorf("%s received the IAM token", name)
		}
	}
	if !trusting.sawIAM() || !rejecting.sawIAM() {
		t.Errorf("the declared https servers were not asked with the token (trusting %v, rejecting %v)", trusting.sawIAM(), rejecting.sawIAM())
	}
	byName := map[string]ClusterClients{}
	for _, c := range clients {
		byName[c.Name] = c
	}
	if id := byName["trusting"].Identity; id.User != "iam:alice" || !strings.Contains(id.Describe(), "IAM user iam:alice") {
		t.Errorf("trusting: identity %+v", id)
	}
	for name, why := range map[string]string{"rejecting": "rejected the IAM token (401)", "undeclared": "not declared as trusting",
		"plain": "plain http", "insecure": "insecure-skip-tls-verify"} {
		id := byName[name].Identity
		if id.User != "admin-user" || !strings.Contains(id.Withheld, why) || !strings.Contains(id.RestartRefusal(name), "Trust model") {
			t.Errorf("%s: identity %+v, want kubeconfig user admin-user withheld for %q", name, id, why)
		}
	}
}
