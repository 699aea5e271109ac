package auth

import (
	"context"
	"errors"
	"path/filepath"
	"time"
)

// source is a store a login can come from; a refreshed token goes back to
// the source it came from, under that source's locks.
type source interface {
	load() (*Credentials, error)
	// lock serialises refresh, login and logout of this source's login
	// across processes.
	lock(ctx context.Context) (func(), error)
	saveRefreshed(ctx context.Context, c *Credentials) error
	// remove drops the login c read from this source (nil: none could be read).
	remove(ctx context.Context, c *Credentials) error
	path() string
}

// goSource is ~/.hanzo (the Go hanzo CLI's files) under driftboard's lock.
type goSource struct{ st *Store }

func (g goSource) load() (*Credentials, error)                { return g.st.Load() }
func (g goSource) lock(ctx context.Context) (func(), error)   { return g.st.Lock(ctx) }
func (g goSource) path() string                               { return filepath.Join(g.st.Dir, credentialsFile) }
func (g goSource) remove(context.Context, *Credentials) error { return g.st.Remove() }
func (g goSource) saveRefreshed(_ context.Context, c *Credentials) error {
	return g.st.saveRefreshed(c)
}

// rustSource is the Rust hanzo CLI's store: refreshed under our lock (other
// driftboards) and the CLI's refresh.lock (the CLI itself); the map is
// written under its credentials.lock.
type rustSource struct {
	r    *RustStore
	ours *Store
	now  func() time.Time
}

func (rs rustSource) load() (*Credentials, error) { return rs.r.Load() }
func (rs rustSource) path() string                { return rs.r.Credentials }
func (rs rustSource) lock(ctx context.Context) (func(), error) {
	unlockOurs, err := rs.ours.Lock(ctx)
	if err != nil {
		return nil, err
	}
	unlockCLI, err := rs.r.lock(ctx, "refresh")
	if err != nil {
		unlockOurs()
		return nil, err
	}
	return func() { unlockCLI(); unlockOurs() }, nil
}
func (rs rustSource) saveRefreshed(ctx context.Context, c *Credentials) error {
	return rs.r.saveRefreshed(ctx, c, rs.now())
}
func (rs rustSource) remove(ctx context.Context, c *Credentials) error {
	if c == nil { // nothing read: nothing of the CLI's to touch
		return nil
	}
	return rs.r.remove(ctx, c.origin)
}

func (s *Session) sources() []source {
	out := []source{goSource{s.store}}
	if s.rust != nil {
		out = append(out, rustSource{r: s.rust, ours: s.store, now: s.now})
	}
	return out
}

// pick reads every store and returns the newest login (latest issued, by
// the access token's iat, else its expiry; ~/.hanzo on a tie). With no
// login anywhere it returns the first store's error that is more than "not
// logged in" (a corrupt file), else ErrNotLoggedIn.
func (s *Session) pick() (*Credentials, source, error) {
	var best *Credentials
	var from source
	var firstErr error
	for _, src := range s.sources() {
		c, err := src.load()
		if err != nil {
			if firstErr == nil && !errors.Is(err, ErrNotLoggedIn) {
				firstErr = err
			}
			continue
		}
		if best == nil || issuedAt(c).After(issuedAt(best)) {
			best, from = c, src
		}
	}
	if best != nil {
		return best, from, nil
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	return nil, nil, ErrNotLoggedIn
}

// issuedAt is when the access token was minted (its iat claim), else its
// expiry: only to choose between stores, never trusted beyond that.
func issuedAt(c *Credentials) time.Time {
	var claims struct {
		Iat int64 `json:"iat"`
	}
	if unverifiedClaims(c.AccessToken, &claims) && claims.Iat > 0 {
		return time.Unix(claims.Iat, 0)
	}
	return expiryOf(c)
}
