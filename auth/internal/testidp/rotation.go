package testidp

import (
	"context"
	"errors"
	"sync"

	"github.com/zitadel/oidc/v3/pkg/op"
)

// rotation gives refresh tokens the Hanzo IAM's rules: each is single use
// and rotated; presenting a spent one is a replay, which revokes the whole
// login (the token family), as real IdPs do against stolen tokens.
type rotation struct {
	mu       sync.Mutex
	familyOf map[string]string // every refresh token issued → its family
	spent    map[string]bool
	live     map[string]string // family → its one usable refresh token
	revoked  map[string]bool   // families ended by a replay
	replays  int
}

func newRotation() *rotation {
	return &rotation{familyOf: map[string]string{}, spent: map[string]bool{}, live: map[string]string{}, revoked: map[string]bool{}}
}

var errReplay = errors.New("refresh token reused: the whole login is revoked")

// check runs before a refresh: a spent token or one of a revoked family is
// refused; a spent one revokes its family. It returns the live token to
// revoke at the storage ("" for none).
func (r *rotation) check(token string) (revoke string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fam, known := r.familyOf[token]
	switch {
	case !known:
		return "", nil
	case r.spent[token]:
		r.replays++
		r.revoked[fam] = true
		return r.live[fam], errReplay
	case r.revoked[fam]:
		return "", errReplay
	}
	return "", nil
}

// issued records a new refresh token: a login starts a family, a refresh
// spends current and continues its family.
func (r *rotation) issued(current, next string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fam := next
	if current != "" {
		fam = r.familyOf[current]
		r.spent[current] = true
	}
	r.familyOf[next] = fam
	r.live[fam] = next
}

// failed records a refresh with current that the storage refused after
// check let it through (two requests racing with one token): a replay.
func (r *rotation) failed(current string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	fam, ok := r.familyOf[current]
	if !ok {
		return ""
	}
	r.replays++
	r.revoked[fam] = true
	return r.live[fam]
}

// TokenRequestByRefreshToken refuses spent tokens and revoked logins.
func (s *idpStorage) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	if live, err := s.rotation.check(token); err != nil {
		if live != "" {
			s.Storage.RevokeToken(ctx, live, "", s.clientID)
		}
		return nil, err
	}
	return s.Storage.TokenRequestByRefreshToken(ctx, token)
}

// Replays is how many spent refresh tokens were presented (each revoked a login).
func (s *Server) Replays() int {
	s.store.rotation.mu.Lock()
	defer s.store.rotation.mu.Unlock()
	return s.store.rotation.replays
}
