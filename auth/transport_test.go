package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

func TestTransportCarriesTheIdentity(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	browserLogin(t, idp, s, "alice", "alice-pw")

	var seen atomic.Value
	trusting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Authorization"))
	}))
	defer trusting.Close()
	var rejected atomic.Pointer[auth.ClusterRejectedError]
	client := &http.Client{Transport: s.WrapTransport(func(e *auth.ClusterRejectedError) { rejected.Store(e) })(http.DefaultTransport)}

	get := func(url string) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer from-kubeconfig")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET: %v", err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	get(trusting.URL)
	if seen.Load() != "Bearer "+readCreds(t, dir).AccessToken {
		t.Errorf("the cluster did not receive the IAM token")
	}
	// Due for refresh: the transport refreshes before sending.
	writeExpiry(t, dir, time.Now().Add(time.Minute))
	get(trusting.URL)
	if cur := readCreds(t, dir).AccessToken; seen.Load() != "Bearer "+cur || idp.Refreshes() != 1 {
		t.Errorf("after refresh: sent the new token %v, refreshes %d", seen.Load() == "Bearer "+cur, idp.Refreshes())
	}
	if rejected.Load() != nil {
		t.Error("a 200 was reported as a rejection")
	}

	untrusting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	}))
	defer untrusting.Close()
	if code := get(untrusting.URL); code != http.StatusUnauthorized {
		t.Errorf("status = %d", code)
	}
	e := rejected.Load()
	if e == nil || e.Issuer != idp.Issuer || !strings.Contains(e.Error(), "does not trust IAM issuer") {
		t.Fatalf("rejection = %v", e)
	}
}

func TestTransportFailsTypedWhenNotLoggedIn(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	client := &http.Client{Transport: auth.Transport(nil, s, nil)}
	_, err := client.Get(idp.Issuer)
	if !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("err = %v, want ErrNotLoggedIn", err)
	}
	if _, err := s.Principal(context.Background()); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("principal err = %v", err)
	}
}
