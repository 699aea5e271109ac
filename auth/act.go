package auth

import (
	"context"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/model"
)

type pinnedTokenKey struct{}

// withPinnedToken makes every request under ctx through this package's
// transport carry exactly tok, so one action's checks and its writes are
// made with one token even if the stored login changes meanwhile.
func withPinnedToken(ctx context.Context, tok string) context.Context {
	return context.WithValue(ctx, pinnedTokenKey{}, tok)
}

func pinnedToken(ctx context.Context) (string, bool) {
	tok, ok := ctx.Value(pinnedTokenKey{}).(string)
	return tok, ok && tok != ""
}

// Act starts one action (a restart check, a restart): it reads the current
// token once (refreshing it when due), verifies it, and returns a context
// whose requests carry that very token with the principal its claims name.
// A login changed in another terminal is therefore seen, and verified,
// before the next action; a token that fails verification is not sent.
func (s *Session) Act(ctx context.Context) (context.Context, *model.Principal, error) {
	tok, err := s.Token(ctx)
	if err != nil {
		return ctx, nil, err
	}
	claims, exp, err := s.verify(ctx, tok)
	if err != nil {
		return ctx, nil, err
	}
	s.verified.remember(tok, exp)
	p := model.NewPrincipal(claims)
	return withPinnedToken(ctx, tok), &p, nil
}

// VerifiedToken is Token, verified: the transport sends nothing else. The
// last verified token is remembered until it expires, so verification (a
// signature check against cached keys) runs once per token, not per request.
func (s *Session) VerifiedToken(ctx context.Context) (string, error) {
	tok, err := s.Token(ctx)
	if err != nil {
		return "", err
	}
	if s.verified.valid(tok, s.now()) {
		return tok, nil
	}
	_, exp, err := s.verify(ctx, tok)
	if err != nil {
		return "", err
	}
	s.verified.remember(tok, exp)
	return tok, nil
}

// verifiedCache remembers the last token that passed verification.
type verifiedCache struct {
	mu  sync.Mutex
	tok string
	exp time.Time
}

func (v *verifiedCache) valid(tok string, now time.Time) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return tok != "" && tok == v.tok && now.Before(v.exp)
}

func (v *verifiedCache) remember(tok string, exp time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.tok, v.exp = tok, exp
}

// verifiedSource is the Session as the transport's TokenSource.
type verifiedSource struct{ s *Session }

func (v verifiedSource) Token(ctx context.Context) (string, error) { return v.s.VerifiedToken(ctx) }
func (v verifiedSource) Issuer() string                            { return v.s.Issuer() }
