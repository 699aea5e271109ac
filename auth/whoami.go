package auth

import (
	"context"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// WhoAmI is what `driftboard whoami` shows. It holds no token.
type WhoAmI struct {
	User       string          `json:"user"`
	Subject    string          `json:"subject"`
	Email      string          `json:"email,omitempty"`
	HomeOrg    string          `json:"homeOrg,omitempty"`
	Role       string          `json:"role"` // "SuperAdmin", "OrgAdmin of acme", "member of acme"
	SuperAdmin bool            `json:"superAdmin"`
	OrgAdmin   bool            `json:"orgAdmin"`
	Orgs       []model.OrgRole `json:"orgs"`
	Issuer     string          `json:"issuer"`
	ClientID   string          `json:"clientID"`
	ExpiresAt  time.Time       `json:"expiresAt"`
	Source     string          `json:"source"` // the credentials file, or HANZO_TOKEN
	Principal  model.Principal `json:"-"`
}

// ExpiresIn is the time the access token has left at now (negative: expired).
func (w WhoAmI) ExpiresIn(now time.Time) time.Duration { return w.ExpiresAt.Sub(now) }

// WhoAmI refreshes the token if due, verifies it and says who it names.
func (s *Session) WhoAmI(ctx context.Context) (WhoAmI, error) {
	raw, src, err := s.token(ctx)
	if err != nil {
		return WhoAmI{}, err
	}
	c, exp, err := s.verify(ctx, raw)
	if err != nil {
		return WhoAmI{}, err
	}
	return s.whoAmI(c, exp, src), nil
}

func (s *Session) whoAmI(c model.Claims, exp time.Time, source string) WhoAmI {
	p := model.NewPrincipal(c)
	return WhoAmI{
		User:       p.User,
		Subject:    p.Subject,
		Email:      p.Email,
		HomeOrg:    p.HomeOrg,
		Role:       p.RoleName(),
		SuperAdmin: p.SuperAdmin,
		OrgAdmin:   p.OrgAdmin,
		Orgs:       p.Orgs,
		Issuer:     s.settings.Issuer,
		ClientID:   s.settings.ClientID,
		ExpiresAt:  exp,
		Source:     source,
		Principal:  p,
	}
}
