package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// A first list that fails and is retried (the server answers 503 to every
// ReplicaSet list after the access probe's one-item LIST passed): while
// list waits for the sync, stderr says which cluster is retrying what and
// the server's words, sanitised, instead of waiting in silence until the
// sync's bound or --timeout.
func TestListSaysWhyItWaitsWhileAListIsRetried(t *testing.T) {
	proxy := failingLists(t, iamCluster(t), isList("/apis/apps/v1/", "replicasets"), http.StatusServiceUnavailable,
		"ServiceUnavailable", "etcdserver: leader changed\x1b]0;owned\x07")
	kc := writeKubeconfig(t, proxy.URL, "proxied")
	r := newEnv(t).run(t, "list", "--kubeconfig", kc, "--releases=off", "--timeout", "8s", "-o", "json")
	r.expect(t, ExitError, "waiting: cluster proxied syncing ", "— retrying replicasets", "etcdserver: leader changed")
	if strings.ContainsAny(r.err, "\x1b\x07") {
		t.Errorf("the server's words reached stderr unsanitised: %q", r.err)
	}
	if n := strings.Count(r.err, "waiting: cluster proxied"); n != 1 {
		t.Errorf("said %d times why it waits, want once for one error:\n%s", n, r.err)
	}
}

// iamCluster starts an API server with one App, hanzo/iam, and returns its
// administrator's config.
func iamCluster(t *testing.T) *rest.Config {
	t.Helper()
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	return c.AdminConfig()
}

// failingLists serves the test API server through a proxy (as the
// administrator) that answers code, reason and message to every request
// refuse matches.
func failingLists(t *testing.T, admin *rest.Config, refuse func(*http.Request) bool, code int, reason, message string) *httptest.Server {
	t.Helper()
	rt, err := rest.TransportFor(admin)
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(admin.Host)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport, rp.FlushInterval = rt, -1 // watches stream
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Authorization") // the kubeconfig's token: the proxy acts as the administrator
		if refuse(r) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			msg := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x1b", `\u001b`, "\x07", `\u0007`, "\n", `\n`).Replace(message)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"` + reason + `","code":` +
				strconv.Itoa(code) + `,"message":"` + msg + `"}`))
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// isList matches the lists and watches of one resource of an API group
// version (prefix), but not the access probe's one-item LIST.
func isList(prefix, resource string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return strings.HasPrefix(r.URL.Path, prefix) && path.Base(r.URL.Path) == resource && r.URL.Query().Get("limit") != "1"
	}
}
