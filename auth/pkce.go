package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// errNoBrowser: the browser could not be opened; Login falls back to the device flow.
var errNoBrowser = errors.New("no browser")

// callback is what the loopback redirect delivered.
type callback struct {
	code string
	err  error
}

// browserLogin runs authorization code + PKCE (S256) with a loopback
// redirect on 127.0.0.1:<random port>/callback, checking state and nonce.
func (s *Session) browserLogin(ctx context.Context, ep *endpoints, o LoginOptions) (*oauth2.Token, error) {
	addr := o.ListenAddress
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		if o.ListenAddress != "" { // asked for: say why it cannot be used
			return nil, fmt.Errorf("listen for the login redirect on %s: %w", o.ListenAddress, err)
		}
		return nil, errNoBrowser // nowhere to receive the redirect: use the device flow
	}
	redirect := "http://" + l.Addr().String() + "/callback"
	state, nonce, verifier := randomString(), randomString(), oauth2.GenerateVerifier()
	cfg := s.oauthConfig(ep, redirect)

	results := make(chan callback, 1)
	var strangers atomic.Int32
	srv := &http.Server{Handler: callbackHandler(state, results, &strangers), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx) // let the browser's page finish
	}()

	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oidc.Nonce(nonce))
	if err := o.OpenBrowser(authURL); err != nil {
		return nil, errNoBrowser
	}
	o.Prompt(Prompt{Kind: PromptBrowser, BrowserURL: authURL})

	wait, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var cb callback
	select {
	case cb = <-results:
	case <-wait.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if n := strangers.Load(); n > 0 {
			return nil, newError(ErrLoginTimeout, fmt.Sprintf("%d redirect(s) carrying another state (another login's, or forged) were refused", n), nil)
		}
		return nil, ErrLoginTimeout
	}
	if cb.err != nil {
		return nil, cb.err
	}
	tok, err := cfg.Exchange(s.withClient(ctx), cb.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, loginError("exchange the authorization code", err, cb.code, verifier)
	}
	rawID, _ := tok.Extra("id_token").(string)
	if rawID == "" {
		return nil, newError(ErrLoginFailed, "the identity provider returned no ID token", nil)
	}
	idt, _, err := s.verifyToken(ctx, ep, rawID)
	if err != nil {
		return nil, newError(ErrLoginFailed, "ID token", err, rawID, tok.AccessToken, tok.RefreshToken)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return nil, newError(ErrLoginFailed, "ID token nonce does not match this login", nil)
	}
	return tok, nil
}

// callbackHandler accepts one redirect on /callback whose state matches.
// Any local process can reach the listener: a redirect with another state
// is answered 400 and counted in strangers, and the login goes on waiting
// for its own (only the browser and the IdP know the state).
func callbackHandler(state string, results chan<- callback, strangers *atomic.Int32) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
			strangers.Add(1)
			http.Error(w, "This redirect is not for the driftboard login in progress.", http.StatusBadRequest)
			return
		}
		var cb callback
		switch {
		case q.Get("error") == "access_denied":
			cb.err = ErrAccessDenied
		case q.Get("error") != "":
			cb.err = newError(ErrLoginFailed, "the identity provider answered "+q.Get("error"), nil)
		case q.Get("code") == "":
			cb.err = newError(ErrLoginFailed, "the redirect carried no code", nil)
		default:
			cb.code = q.Get("code")
		}
		page, status := "<html><body><p>Logged in to driftboard. You can close this tab.</p></body></html>", http.StatusOK
		if cb.err != nil {
			page, status = "<html><body><p>driftboard login failed. Return to the terminal.</p></body></html>", http.StatusBadRequest
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, page)
		if f, ok := w.(http.Flusher); ok {
			f.Flush() // the page reaches the browser before the login goes on and closes this server
		}
		select {
		case results <- cb:
		default: // a second redirect: the first one decides
		}
	})
	return mux
}

func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}
