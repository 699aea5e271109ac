package testidp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
)

// UserAgent is the user's browser: an HTTP client with a cookie jar that
// trusts the provider and follows redirects (to the loopback callback too).
type UserAgent struct {
	s *Server
	c *http.Client
}

// Browser returns a fresh user agent.
func (s *Server) Browser() *UserAgent {
	jar, _ := cookiejar.New(nil)
	return &UserAgent{s: s, c: &http.Client{Transport: s.TLS.Client().Transport, Jar: jar}}
}

// LoginCode follows the authorization URL to the login page, signs in and
// follows the redirects back to the client's loopback callback.
func (u *UserAgent) LoginCode(ctx context.Context, authURL, username, password string) error {
	resp, err := u.get(ctx, authURL)
	if err != nil {
		return err
	}
	id := resp.Request.URL.Query().Get("authRequestID")
	if id == "" {
		return fmt.Errorf("the provider did not show its login page (at %s)", resp.Request.URL.Path)
	}
	resp, err = u.post(ctx, u.s.Issuer+"/login/username", url.Values{"id": {id}, "username": {username}, "password": {password}})
	if err != nil {
		return err
	}
	if resp.Request.URL.Host == u.s.TLS.Listener.Addr().String() {
		return fmt.Errorf("login did not redirect back to the client (ended at %s)", resp.Request.URL.Path)
	}
	return nil
}

// ApproveDevice opens the verification URI, signs in and allows (or
// denies) the device.
func (u *UserAgent) ApproveDevice(ctx context.Context, verificationURIComplete, username, password string, allow bool) error {
	resp, err := u.get(ctx, verificationURIComplete)
	if err != nil {
		return err
	}
	code := resp.Request.URL.Query().Get("user_code")
	if _, err := u.post(ctx, u.s.Issuer+"/device/login", url.Values{"user_code": {code}, "username": {username}, "password": {password}}); err != nil {
		return err
	}
	action := "denied"
	if allow {
		action = "allowed"
	}
	_, err = u.post(ctx, u.s.Issuer+"/device/confirm", url.Values{"action": {action}})
	return err
}

func (u *UserAgent) get(ctx context.Context, target string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	return u.do(req)
}

func (u *UserAgent) post(ctx context.Context, target string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return u.do(req)
}

func (u *UserAgent) do(req *http.Request) (*http.Response, error) {
	resp, err := u.c.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return nil, fmt.Errorf("%s %s: %s: %s", req.Method, resp.Request.URL.Path, resp.Status, strings.TrimSpace(string(body)))
	}
	return resp, nil
}
