// Package testidp runs a real OpenID Provider (github.com/zitadel/oidc/v3,
// Apache-2.0) in-process over TLS for the auth tests. It reuses the library's
// example storage (example/server/storage) behind a small wrapper that adds
// what the Hanzo IAM has and the example lacks: a public client "hanzo-cli"
// with the device, authorization-code+PKCE and refresh grants and JWT access
// tokens, device logins whose subject is the user id, device-flow refresh
// tokens bound to the client, and the Hanzo claims (owner, isAdmin, orgs).
package testidp

import (
	"context"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Org is one entry of the orgs claim.
type Org struct {
	Org  string `json:"org"`
	Role string `json:"role"`
}

// User is a login at the test IdP with its Hanzo claims.
type User struct {
	ID, Username, Password, Email, Name string
	Owner                               string
	IsAdmin                             bool
	Orgs                                []Org
}

// users implements storage.UserStore.
type users struct {
	byID map[string]*User
}

func (u users) GetUserByID(id string) *storage.User {
	if x, ok := u.byID[id]; ok {
		return toExample(x)
	}
	return nil
}

func (u users) GetUserByUsername(name string) *storage.User {
	for _, x := range u.byID {
		if x.Username == name {
			return toExample(x)
		}
	}
	return nil
}

func (u users) ExampleClientID() string { return storage.ServiceUserID }

func toExample(x *User) *storage.User {
	first, last, _ := strings.Cut(x.Name, " ")
	return &storage.User{
		ID: x.ID, Username: x.Username, Password: x.Password,
		FirstName: first, LastName: last, Email: x.Email, EmailVerified: true, IsAdmin: x.IsAdmin,
	}
}

// idpStorage wraps the example storage with the Hanzo IAM's behaviour.
type idpStorage struct {
	*storage.Storage
	users    users
	clientID string
	rotation *rotation
}

// cliClient is the example's native client with the grants and token type
// the Hanzo CLI client has.
type cliClient struct{ op.Client }

func (cliClient) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken, oidc.GrantTypeDeviceCode}
}
func (cliClient) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeJWT }

func (s *idpStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil || id != s.clientID {
		return c, err
	}
	return cliClient{c}, nil
}

// CompleteDeviceAuthorization: the example passes the username as subject;
// tokens need the user id.
func (s *idpStorage) CompleteDeviceAuthorization(ctx context.Context, userCode, subject string) error {
	if u := s.users.GetUserByUsername(subject); u != nil {
		subject = u.ID
	}
	return s.Storage.CompleteDeviceAuthorization(ctx, userCode, subject)
}

// CreateAccessAndRefreshTokens: the example stores device-flow tokens
// without a client id, so their refresh would fail with invalid_grant; a
// device request becomes an ordinary auth request of the client first.
func (s *idpStorage) CreateAccessAndRefreshTokens(ctx context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	if st, ok := req.(*op.DeviceAuthorizationState); ok {
		req = &storage.AuthRequest{
			ApplicationID: st.ClientID,
			UserID:        st.Subject,
			Scopes:        st.Scopes,
			ResponseType:  oidc.ResponseTypeCode,
		}
	}
	id, next, exp, err := s.Storage.CreateAccessAndRefreshTokens(ctx, req, current)
	switch {
	case err != nil && current != "":
		if live := s.rotation.failed(current); live != "" {
			s.Storage.RevokeToken(ctx, live, "", s.clientID)
		}
	case err == nil && next != "":
		s.rotation.issued(current, next)
	}
	return id, next, exp, err
}

// GetPrivateClaimsFromScopes puts the Hanzo claims into JWT access tokens.
func (s *idpStorage) GetPrivateClaimsFromScopes(ctx context.Context, userID, clientID string, scopes []string) (map[string]any, error) {
	claims, err := s.Storage.GetPrivateClaimsFromScopes(ctx, userID, clientID, scopes)
	if err != nil {
		return nil, err
	}
	u, ok := s.users.byID[userID]
	if !ok {
		return claims, nil
	}
	if claims == nil {
		claims = map[string]any{}
	}
	orgs := make([]map[string]any, 0, len(u.Orgs))
	for _, o := range u.Orgs {
		orgs = append(orgs, map[string]any{"org": o.Org, "role": o.Role})
	}
	claims["email"] = u.Email
	claims["name"] = u.Name
	claims["preferred_username"] = u.Username
	claims["owner"] = u.Owner
	claims["isAdmin"] = u.IsAdmin
	claims["orgs"] = orgs
	return claims, nil
}
