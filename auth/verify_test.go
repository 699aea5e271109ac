package auth_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

func TestVerifiedPrincipal(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	now := time.Now()
	s := newSession(idp, dir, func() time.Time { return now })
	browserLogin(t, idp, s, "alice", "alice-pw")
	p, err := s.Principal(context.Background())
	if err != nil {
		t.Fatalf("principal: %v", err)
	}
	if p.Subject != "u-alice" || p.HomeOrg != "acme" || !p.OrgAdmin || p.SuperAdmin {
		t.Errorf("principal = %+v", p)
	}
	if d := p.Authorize("tenant-acme"); !d.Allowed {
		t.Errorf("OrgAdmin of acme refused in tenant-acme: %s", d.Reason)
	}
	if d := p.Authorize("hanzo"); d.Allowed {
		t.Errorf("OrgAdmin of acme allowed in hanzo: %s", d.Reason)
	}
}

func TestVerifyRejectsBadTokens(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	other := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	now := time.Now()
	s := newSession(idp, dir, func() time.Time { return now })
	browserLogin(t, idp, s, "bob", "bob-pw")
	good := readCreds(t, dir).AccessToken
	foreignDir := t.TempDir()
	browserLogin(t, other, newSession(other, foreignDir, nil), "bob", "bob-pw")
	foreign := readCreds(t, foreignDir).AccessToken

	ctx := context.Background()
	if c, _, err := s.Verify(ctx, good); err != nil || c.Subject != "u-bob" || len(c.Orgs) != 1 || c.Orgs[0].Role != "member" {
		t.Fatalf("good token: %+v %v", c, err)
	}
	later := newSession(idp, dir, func() time.Time { return now.Add(2 * time.Hour) })
	otherClient := auth.NewSession(auth.Options{
		Settings: auth.Settings{Issuer: idp.Issuer, ClientID: "someone-else"}, Store: auth.NewStore(dir),
		HTTPClient: idp.HTTPClient(), Now: func() time.Time { return now },
	})
	for _, tc := range []struct {
		name string
		s    *auth.Session
		tok  string
	}{
		{"expired by the clock", later, good},
		{"not a JWT", s, "not-a-token"},
		{"claims changed", s, withPayload(t, good, `"member"`, `"owner"`)},
		{"signature changed", s, flipSignature(good)},
		{"signed by another issuer", s, foreign},
		{"for another client", otherClient, good},
	} {
		_, _, err := tc.s.Verify(ctx, tc.tok)
		if !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("%s: err = %v, want ErrInvalidToken", tc.name, err)
			continue
		}
		assertNoSecrets(t, err.Error(), good, tc.tok, foreign)
	}
}

// withPayload rewrites the JWT's claims, keeping header and signature.
func withPayload(t *testing.T, jwt, from, to string) string {
	t.Helper()
	parts := strings.Split(jwt, ".")
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || !strings.Contains(string(b), from) {
		t.Fatalf("token payload lacks %s", from)
	}
	parts[1] = base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(b), from, to, 1)))
	return strings.Join(parts, ".")
}

func flipSignature(jwt string) string {
	i := strings.LastIndex(jwt, ".") + 5
	c := byte('A')
	if jwt[i] == 'A' {
		c = 'B'
	}
	return jwt[:i] + string(c) + jwt[i+1:]
}

// keysDown serves discovery and fails every other request (the key set):
// with an error status, or without an answer.
type keysDown struct {
	base   http.RoundTripper
	status int // 0: the connection fails
}

func (k keysDown) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/.well-known/openid-configuration" {
		return k.base.RoundTrip(req)
	}
	if k.status == 0 {
		return nil, errors.New("connection refused")
	}
	return &http.Response{StatusCode: k.status, Status: http.StatusText(k.status), Body: io.NopCloser(strings.NewReader("down")),
		Header: http.Header{}, Request: req}, nil
}

// A key set the IdP cannot serve makes Verify say the IdP is unavailable
// (so callers keep a token rather than drop it as invalid), through a typed
// error from the key set's transport, whatever go-oidc's words.
func TestVerifyWithKeysUnreachableIsUnavailable(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "bob", "bob-pw")
	good := readCreds(t, dir).AccessToken
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusNotFound, 0} {
		s := auth.NewSession(auth.Options{
			Settings: auth.Settings{Issuer: idp.Issuer, ClientID: "hanzo-cli"}, Store: auth.NewStore(dir),
			HTTPClient: &http.Client{Transport: keysDown{base: idp.HTTPClient().Transport, status: status}},
		})
		_, _, err := s.Verify(context.Background(), good)
		if !errors.Is(err, auth.ErrIdPUnavailable) || errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("key set answering %d: err = %v, want ErrIdPUnavailable", status, err)
			continue
		}
		assertNoSecrets(t, err.Error(), good)
	}
}
