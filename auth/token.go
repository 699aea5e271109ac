package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// Token returns the current IAM access token, refreshing it first when it
// expires within the refresh margin. It never opens a browser: a refresh that
// fails is ErrSessionExpired (log in again) or ErrIdPUnavailable (try later).
func (s *Session) Token(ctx context.Context) (string, error) {
	tok, _, err := s.token(ctx)
	return tok, err
}

// token is Token and where the token came from (a file, or HANZO_TOKEN).
func (s *Session) token(ctx context.Context) (string, string, error) {
	if s.envToken != "" {
		return s.envToken, EnvToken, nil
	}
	c, src, err := s.pick()
	if err != nil {
		return "", "", err
	}
	if s.fresh(c) {
		return c.AccessToken, src.path(), nil
	}
	next, err := s.refresh(ctx, src)
	if err != nil {
		// Refreshing early must not cost a token that still works: with the
		// IdP unreachable, use the current one until it really expires.
		if errors.Is(err, ErrIdPUnavailable) && c.AccessToken != "" && s.now().Before(expiryOf(c)) {
			return c.AccessToken, src.path(), nil
		}
		return "", "", err
	}
	return next.AccessToken, src.path(), nil
}

// fresh reports whether c's access token outlives now + margin.
func (s *Session) fresh(c *Credentials) bool {
	if c.AccessToken == "" {
		return false
	}
	exp := expiryOf(c)
	if exp.IsZero() {
		return true // unknown: let the server judge
	}
	return s.now().Add(s.margin).Before(exp)
}

// expiryOf is the stored expiry, else the token's own exp claim (read only
// to decide when to refresh; never trusted for anything else).
func expiryOf(c *Credentials) time.Time {
	if !c.Expiry.IsZero() {
		return c.Expiry
	}
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if !unverifiedClaims(c.AccessToken, &claims) || claims.Exp == 0 {
		return time.Time{}
	}
	return time.Unix(claims.Exp, 0)
}

// unverifiedClaims decodes a JWT's payload into v without checking it: only
// for bookkeeping (when to refresh, what to name a stored identity).
func unverifiedClaims(token string, v any) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	return err == nil && json.Unmarshal(b, v) == nil
}

// refreshWriteTimeout bounds a refresh that outlives its caller.
const refreshWriteTimeout = 30 * time.Second

// refresh runs under the in-process mutex and the source's file locks, and
// re-reads the source once it holds them: another process may have
// refreshed already, and its refresh token has replaced ours (single use).
func (s *Session) refresh(ctx context.Context, src source) (*Credentials, error) {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	unlock, err := src.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()

	c, err := src.load()
	if err != nil {
		return nil, err
	}
	if s.fresh(c) {
		return c, nil
	}
	if c.RefreshToken == "" {
		return nil, newError(ErrSessionExpired, "the access token expired and there is no refresh token", nil)
	}
	ep, err := s.endpoints(ctx)
	if err != nil {
		return nil, err
	}
	// Once the single-use refresh token is sent, the rotated one must be
	// written even if the caller gives up (the board quits): otherwise the
	// next refresh replays the spent token and the IdP revokes the whole
	// login, the hanzo CLI's too. So the exchange and the write run under a
	// context detached from the caller's, bounded by their own timeout.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshWriteTimeout)
	defer cancel()
	hookAt("refresh-exchange")
	ts := s.oauthConfig(ep, "").TokenSource(s.withClient(wctx), &oauth2.Token{RefreshToken: c.RefreshToken})
	tok, err := ts.Token()
	if err != nil {
		return nil, refreshError(err, c.secrets()...)
	}
	next := *c
	next.AccessToken = tok.AccessToken
	next.TokenType = tok.TokenType
	next.Expiry = tok.Expiry
	if tok.RefreshToken != "" {
		next.RefreshToken = tok.RefreshToken
	}
	if claims, _, err := s.verify(wctx, tok.AccessToken); err == nil {
		next.Subject = claims.Subject
		next.Owner = claims.Owner
	}
	if err := src.saveRefreshed(wctx, &next); err != nil {
		return nil, err
	}
	return &next, nil
}

// refreshError turns a failed refresh into ErrSessionExpired (the grant is
// gone: log in again) or ErrIdPUnavailable (network, 5xx, rate limit).
func refreshError(err error, secrets ...string) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		detail := oauthErrorText(re)
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		if re.ErrorCode == "" && (status >= 500 || status == 429) || re.ErrorCode == "temporarily_unavailable" || re.ErrorCode == "server_error" {
			return newError(ErrIdPUnavailable, detail, nil, secrets...)
		}
		return newError(ErrSessionExpired, "refresh refused: "+detail, nil, secrets...)
	}
	// No OAuth answer at all: network, TLS, timeout. Nothing says the grant is gone.
	return newError(ErrIdPUnavailable, "refresh", err, secrets...)
}

// oauthErrorText is the RFC 6749 error code and description, never the body.
func oauthErrorText(re *oauth2.RetrieveError) string {
	if re.ErrorCode == "" {
		if re.Response != nil {
			return "HTTP " + re.Response.Status
		}
		return "unexpected response"
	}
	if re.ErrorDescription != "" {
		return re.ErrorCode + " (" + re.ErrorDescription + ")"
	}
	return re.ErrorCode
}
