package auth

import (
	"context"
	"net/http"
)

// TokenSource yields the current access token; *Session is one.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
}

// Transport returns a RoundTripper that sends the current IAM token as the
// bearer on every request through base (refreshing as needed) and calls
// onRejected when the server answers 401 to it: the cluster does not trust
// the issuer. The 401 response itself is returned unchanged.
func Transport(base http.RoundTripper, src TokenSource, onRejected func(*ClusterRejectedError)) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	t := &bearerTransport{base: base, src: src, onRejected: onRejected}
	if is, ok := src.(interface{ Issuer() string }); ok {
		t.issuer = is.Issuer()
	}
	return t
}

// WrapTransport has the shape of rest.Config.WrapTransport. client-go applies
// it inside its own bearer/basic-auth wrappers, and this transport sets the
// Authorization header last, so the IAM token replaces a kubeconfig token. A
// kubeconfig client certificate would still be presented (and the API server
// prefers it), so a config meant to act as the IAM user must carry none.
func (s *Session) WrapTransport(onRejected func(*ClusterRejectedError)) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper { return Transport(rt, s, onRejected) }
}

type bearerTransport struct {
	base       http.RoundTripper
	src        TokenSource
	issuer     string
	onRejected func(*ClusterRejectedError)
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.src.Token(req.Context())
	if err != nil {
		if req.Body != nil {
			req.Body.Close() // RoundTrip must close the body, even on error
		}
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
