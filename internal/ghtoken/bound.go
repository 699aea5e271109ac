package ghtoken

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Bind returns a transport that sets token only on requests to api's
// scheme and host:port (see bound).
func Bind(next http.RoundTripper, token string, api *url.URL) http.RoundTripper {
	return &bound{next: next, token: token, scheme: api.Scheme, host: schemeHostPort(api)}
}

// bound sets the GitHub token only on requests to the configured API's
// scheme and host:port. A redirect elsewhere (another host, or from https to
// http) goes out without it; Go's own redirect rule keeps the header for
// another port of the same host and a wrapper that set it on every request
// would add it back anyway.
type bound struct {
	next         http.RoundTripper
	token        string
	scheme, host string
}

func (t *bound) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.URL.Scheme == t.scheme && schemeHostPort(req.URL) == t.host {
		r.Header.Set("Authorization", "Bearer "+t.token)
	} else {
		r.Header.Del("Authorization")
	}
	return t.next.RoundTrip(r)
}

// schemeHostPort is the lower-cased host:port of u, its port made explicit.
func schemeHostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}
