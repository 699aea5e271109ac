package auth

import (
	"context"
	"errors"
	"time"

	"golang.org/x/oauth2"
)

// PromptKind says what the user is asked to do.
type PromptKind int

const (
	// PromptDeviceCode: open VerificationURI and enter UserCode (or open
	// VerificationURIComplete, which carries the code).
	PromptDeviceCode PromptKind = iota
	// PromptBrowser: a browser was asked to open BrowserURL; if nothing
	// happens, the user can open it by hand.
	PromptBrowser
)

// Prompt is what the caller shows the user during login. auth never prints.
type Prompt struct {
	Kind                    PromptKind
	UserCode                string
	VerificationURI         string
	VerificationURIComplete string
	BrowserURL              string
	ExpiresAt               time.Time
	Note                    string // e.g. why the device flow is used
}

// LoginOptions choose the flow and inject the side effects.
type LoginOptions struct {
	// Prompt receives the codes and URLs to show. Required.
	Prompt func(Prompt)
	// OpenBrowser opens a URL in the user's browser. nil, or an error from
	// it, means the device flow is used instead.
	OpenBrowser func(url string) error
	// Device forces the device authorization grant.
	Device bool
	// ListenAddress is where the authorization code flow receives its
	// redirect (host:port, loopback); "" picks 127.0.0.1 and a free port.
	ListenAddress string
	// Timeout bounds the wait for the browser's redirect (default 5 min).
	Timeout time.Duration
}

// Login signs the user in (authorization code + PKCE when a browser can be
// opened, else the device flow), verifies the token and stores it in the
// shared store. It returns who logged in.
func (s *Session) Login(ctx context.Context, o LoginOptions) (WhoAmI, error) {
	if o.Prompt == nil {
		o.Prompt = func(Prompt) {}
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if err := s.store.checkTargets(); err != nil {
		return WhoAmI{}, err // before the user logs in for nothing
	}
	ep, err := s.endpoints(ctx)
	if err != nil {
		return WhoAmI{}, err
	}
	var tok *oauth2.Token
	note := ""
	if !o.Device && o.OpenBrowser != nil {
		tok, err = s.browserLogin(ctx, ep, o)
		if errors.Is(err, errNoBrowser) {
			note = "no browser could be opened; log in on any device with the code below"
		} else if err != nil {
			return WhoAmI{}, err
		}
	} else if !o.Device {
		note = "no browser available; log in on any device with the code below"
	}
	if tok == nil {
		tok, err = s.deviceLogin(ctx, ep, o, note)
		if err != nil {
			return WhoAmI{}, err
		}
	}
	return s.storeLogin(ctx, tok)
}

// storeLogin verifies the new access token and writes it to the store,
// keeping fields the hanzo CLI put there (platform_token only for the same user).
func (s *Session) storeLogin(ctx context.Context, tok *oauth2.Token) (WhoAmI, error) {
	secrets := []string{tok.AccessToken, tok.RefreshToken}
	claims, exp, err := s.verify(ctx, tok.AccessToken)
	if err != nil {
		return WhoAmI{}, newError(ErrLoginFailed, "the identity provider returned an access token this board cannot verify", err, secrets...)
	}
	c, lerr := s.store.Load()
	if lerr != nil {
		c = &Credentials{}
	}
	if c.Subject != claims.Subject {
		c.PlatformToken = ""
	}
	c.AccessToken = tok.AccessToken
	c.RefreshToken = tok.RefreshToken
	c.TokenType = tok.TokenType
	c.Expiry = tok.Expiry
	if c.Expiry.IsZero() {
		c.Expiry = exp
	}
	c.Subject = claims.Subject
	c.Owner = claims.Owner
	c.email = claims.Email
	// Under the store's lock: a refresh running in another process finishes
	// first and cannot overwrite this login with the previous one's token.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshWriteTimeout)
	defer cancel()
	unlock, err := s.store.Lock(lctx)
	if err != nil {
		return WhoAmI{}, err
	}
	err = s.store.Save(c)
	unlock()
	if err != nil {
		return WhoAmI{}, err
	}
	return s.whoAmI(claims, c.Expiry, s.store.Dir), nil
}
