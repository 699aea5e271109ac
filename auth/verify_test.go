package auth_test

import (
	"context"
	"encoding/base64"
	"errors"
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
