package auth

import (
	"context"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Verify checks an IAM token (a JWT access or ID token): signature against
// the issuer's JWKS, issuer, audience (and azp when there are several
// audiences) and expiry by the injected clock. It returns the claims and the
// token's expiry.
func (s *Session) Verify(ctx context.Context, raw string) (model.Claims, time.Time, error) {
	return s.verify(ctx, raw)
}

func (s *Session) verify(ctx context.Context, raw string) (model.Claims, time.Time, error) {
	ep, err := s.endpoints(ctx)
	if err != nil {
		return model.Claims{}, time.Time{}, err
	}
	tok, fetchErr, err := s.verifyToken(ctx, ep, raw)
	if err != nil {
		if fetchErr != nil {
			return model.Claims{}, time.Time{}, newError(ErrIdPUnavailable, "read the issuer's signing keys", fetchErr, raw)
		}
		return model.Claims{}, time.Time{}, newError(ErrInvalidToken, "", err, raw)
	}
	var extra struct {
		AZP string `json:"azp"`
	}
	var c model.Claims
	if err := tok.Claims(&c); err != nil {
		return model.Claims{}, time.Time{}, newError(ErrInvalidToken, "malformed claims", nil)
	}
	_ = tok.Claims(&extra)
	// OIDC Core 3.1.3.7: with several audiences azp must be present, and
	// when present it must be this client.
	if extra.AZP != "" && extra.AZP != s.settings.ClientID || len(tok.Audience) > 1 && extra.AZP == "" {
		return model.Claims{}, time.Time{}, newError(ErrInvalidToken, "authorized party is not "+s.settings.ClientID, nil)
	}
	return c, tok.Expiry, nil
}

// Principal is who the current token says the user is, verified.
func (s *Session) Principal(ctx context.Context) (*model.Principal, error) {
	raw, err := s.Token(ctx)
	if err != nil {
		return nil, err
	}
	c, _, err := s.verify(ctx, raw)
	if err != nil {
		return nil, err
	}
	p := model.NewPrincipal(c)
	return &p, nil
}
