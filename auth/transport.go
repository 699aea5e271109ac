package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenSource yields the current access token; *Session is one.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
}

// ErrTokenWithheld is a request the IAM transport refused to send because it
// would have carried the token somewhere the cluster was not declared to be:
// another host (a redirect), or plain http.
var ErrTokenWithheld = errors.New("IAM token withheld")

// Transport returns a RoundTripper bound to one API server: it sends the
// current IAM token (refreshing as needed) only on https requests to that
// server's host, and refuses every other request outright, so no redirect
// can carry the token elsewhere (Go strips the header on a cross-host
// redirect; a wrapper that set it on every request would put it back). It
// calls onRejected when the server answers 401: it does not trust the issuer.
func Transport(base http.RoundTripper, src TokenSource, server string, onRejected func(*ClusterRejectedError)) (http.RoundTripper, error) {
	bound, err := boundHost(server)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = http.DefaultTransport
	}
	t := &bearerTransport{base: base, src: src, host: bound, onRejected: onRejected}
	if is, ok := src.(interface{ Issuer() string }); ok {
		t.issuer = is.Issuer()
	}
	return t, nil
}

// boundHost is the host:port an https server URL names (port 443 made
// explicit, so https://h and https://h:443 are one host).
func boundHost(server string) (string, error) {
	u, err := url.Parse(server)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%w: %q is not a server URL", ErrTokenWithheld, server)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("%w: %s is not https; the IAM token is sent only over verified TLS", ErrTokenWithheld, u.Redacted())
	}
	return hostPort(u), nil
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// WrapTransport has the shape of rest.Config.WrapTransport, bound to server
// (see Transport). It sends only verified tokens: the one pinned to the
// request's context by Act, else the session's current one once verified. client-go applies it inside its own bearer/basic-auth
// wrappers and this transport sets the Authorization header last, so the IAM
// token replaces a kubeconfig token; a kubeconfig client certificate would
// still be presented, so the config must carry none (rest.AnonymousClientConfig).
func (s *Session) WrapTransport(server string, onRejected func(*ClusterRejectedError)) (func(http.RoundTripper) http.RoundTripper, error) {
	if _, err := boundHost(server); err != nil {
		return nil, err
	}
	return func(rt http.RoundTripper) http.RoundTripper {
		t, _ := Transport(rt, verifiedSource{s}, server, onRejected) // server checked above
		return t
	}, nil
}

type bearerTransport struct {
	base       http.RoundTripper
	src        TokenSource
	host       string // the only host:port the token goes to, over https
	issuer     string
	onRejected func(*ClusterRejectedError)
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	closeBody := func() {
		if req.Body != nil {
			req.Body.Close() // RoundTrip must close the body, even on error
		}
	}
	if req.URL.Scheme != "https" || hostPort(req.URL) != t.host {
		closeBody()
		return nil, fmt.Errorf("%w: request to %s://%s, but this client may only talk to https://%s", ErrTokenWithheld, req.URL.Scheme, req.URL.Host, t.host)
	}
	tok, pinned := pinnedToken(req.Context())
	var err error
	if !pinned {
		tok, err = t.src.Token(req.Context())
	}
	if err != nil {
		closeBody()
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok)
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized && t.onRejected != nil {
		t.onRejected(&ClusterRejectedError{Host: req.URL.Host, Issuer: t.issuer})
	}
	return resp, err
}

// CancelRequest lets old client-go code cancel through this wrapper.
func (t *bearerTransport) CancelRequest(req *http.Request) {
	if c, ok := t.base.(interface{ CancelRequest(*http.Request) }); ok {
		c.CancelRequest(req)
	}
}

// WrappedRoundTripper exposes the wrapped transport (client-go's
// net.RoundTripperWrapper), so its TLS settings stay discoverable.
func (t *bearerTransport) WrappedRoundTripper() http.RoundTripper { return t.base }
