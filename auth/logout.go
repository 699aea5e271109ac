package auth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// LogoutResult says what logout did.
type LogoutResult struct {
	HadLogin bool   // there was a stored login
	Revoked  bool   // the server confirmed revocation (RFC 7009)
	Note     string // why not revoked, or that HANZO_TOKEN is still set
}

// Logout revokes the stored refresh token (or the access token) when the
// server offers revocation, then removes the login from the store. A failed
// revocation does not keep the login: it is removed and the result says so.
// Every store the board reads a login from is logged out (~/.hanzo and the
// Rust CLI's active identity), or the next read would find the other one.
func (s *Session) Logout(ctx context.Context) (LogoutResult, error) {
	var res LogoutResult
	for _, src := range s.sources() {
		if err := s.logoutOf(ctx, src, &res); err != nil {
			return res, err
		}
	}
	if s.envToken != "" {
		res.Note = strings.TrimSpace(res.Note + " HANZO_TOKEN is still set and still used.")
	}
	return res, nil
}

func (s *Session) logoutOf(ctx context.Context, src source, res *LogoutResult) error {
	// Under the store's lock, like a refresh: a refresh in flight finishes
	// first, and one that starts after sees no login; it can never write a
	// logged-out login back.
	unlock, err := src.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	c, err := src.load()
	switch {
	case errors.Is(err, ErrNotLoggedIn):
	case err != nil:
		res.Note = "the stored login could not be read, so it was not revoked"
	default:
		res.HadLogin = true
		ep, eperr := s.endpoints(ctx)
		if eperr != nil {
			res.Note = "the identity provider could not be reached (" + eperr.Error() + "), so the token was not revoked; it stays valid until it expires"
		} else if ep.revoke == "" {
			res.Note = "the identity provider offers no revocation; the token stays valid until it expires"
		} else if rerr := s.revoke(ctx, ep.revoke, c); rerr != nil {
			res.Note = "revocation failed (" + rerr.Error() + "); the token stays valid until it expires"
		} else {
			res.Revoked = true
		}
	}
	return src.remove(ctx, c) // c is nil when nothing could be read
}

// revoke posts one RFC 7009 request: the refresh token when there is one
// (revoking it ends the whole grant), else the access token.
func (s *Session) revoke(ctx context.Context, endpoint string, c *Credentials) error {
	form := url.Values{"client_id": {s.settings.ClientID}}
	if c.RefreshToken != "" {
		form.Set("token", c.RefreshToken)
		form.Set("token_type_hint", "refresh_token")
	} else {
		form.Set("token", c.AccessToken)
		form.Set("token_type_hint", "access_token")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return newError(ErrIdPUnavailable, "revocation request", nil)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.hc.Do(req)
	if err != nil {
		return newError(ErrIdPUnavailable, "revoke", err, c.secrets()...)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return newError(ErrIdPUnavailable, "revoke: HTTP "+resp.Status, nil)
	}
	return nil
}
