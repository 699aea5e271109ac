package auth

import (
	"errors"
	"fmt"
	"net/http"
)

// sameHostRedirects copies hc so that a redirect from the IAM is followed
// only to the same host, and never from https to plain http: Go re-sends a
// form on 307 and 308, and the IAM's forms carry codes and refresh tokens.
func sameHostRedirects(hc *http.Client) *http.Client {
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		from := via[0].URL
		if req.URL.Host != from.Host || (req.URL.Scheme != from.Scheme && req.URL.Scheme != "https") {
			return fmt.Errorf("the IAM at %s redirected to %s: nothing is sent to another host or over plain http",
				from.Host, req.URL.Redacted())
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}
