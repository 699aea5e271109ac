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
	trusting := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Authorization"))
	}))
	defer trusting.Close()
	var rejected atomic.Pointer[auth.ClusterRejectedError]
	wrap, err := s.WrapTransport(trusting.URL, func(e *auth.ClusterRejectedError) { rejected.Store(e) })
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: wrap(trusting.Client().Transport)}

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

	untrusting := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	}))
	defer untrusting.Close()
	wrap, err = s.WrapTransport(untrusting.URL, func(e *auth.ClusterRejectedError) { rejected.Store(e) })
	if err != nil {
		t.Fatal(err)
	}
	client = &http.Client{Transport: wrap(untrusting.Client().Transport)}
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
	rt, err := auth.Transport(nil, s, idp.Issuer, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&http.Client{Transport: rt}).Get(idp.Issuer)
	if !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("err = %v, want ErrNotLoggedIn", err)
	}
	if _, err := s.Principal(context.Background()); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("principal err = %v", err)
	}
}

// TestTransportIsBoundToItsServer: the token goes only to the https host the
// transport was made for. A 302 to another host, a plain-http URL or a
// request to any other server is refused before anything is sent, so none of
// them ever sees the token; an http server cannot be bound at all.
func TestTransportIsBoundToItsServer(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	browserLogin(t, idp, s, "alice", "alice-pw")

	var leaked atomic.Int32
	record := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
	}
	elsewhere := httptest.NewTLSServer(http.HandlerFunc(record))
	defer elsewhere.Close()
	plain := httptest.NewServer(http.HandlerFunc(record))
	defer plain.Close()
	var boundSaw atomic.Int32
	bound := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			boundSaw.Add(1)
		}
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, elsewhere.URL+"/api", http.StatusFound)
		case "/plain":
			http.Redirect(w, r, plain.URL+"/api", http.StatusFound)
		}
	}))
	defer bound.Close()
	// One TLS base trusting both test certificates' CA: httptest servers share it.
	wrap, err := s.WrapTransport(bound.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: wrap(bound.Client().Transport)}
	for _, u := range []string{bound.URL + "/away", bound.URL + "/plain", elsewhere.URL, plain.URL} {
		resp, err := client.Get(u)
		if err == nil {
			resp.Body.Close()
		}
		if !errors.Is(err, auth.ErrTokenWithheld) {
			t.Errorf("GET %s: err = %v, want ErrTokenWithheld", u, err)
		}
	}
	if leaked.Load() != 0 {
		t.Errorf("%d requests carried the token past the bound host", leaked.Load())
	}
	if boundSaw.Load() != 2 {
		t.Errorf("the bound server saw the token %d times, want 2", boundSaw.Load())
	}
	if _, err := s.WrapTransport(plain.URL, nil); !errors.Is(err, auth.ErrTokenWithheld) || !strings.Contains(err.Error(), "not https") {
		t.Errorf("binding to %s: err = %v, want refused as not https", plain.URL, err)
	}
}
