package auth_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// clearListener counts connections: a place a token must never reach.
func clearListener(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return l.Addr().String(), &n
}

// TestDiscoveredEndpointsMustBeHTTPS: an https issuer whose discovery
// document names any endpoint over plain http (even on loopback) is refused
// before the user is prompted or anything is sent there.
func TestDiscoveredEndpointsMustBeHTTPS(t *testing.T) {
	t.Parallel()
	for name, field := range map[string]string{"token": "token_endpoint", "authorization": "authorization_endpoint",
		"device": "device_authorization_endpoint", "jwks": "jwks_uri", "userinfo": "userinfo_endpoint",
		"revocation": "revocation_endpoint"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr, conns := clearListener(t)
			plain := "http://" + addr + "/" + name
			idp := testidp.Start(t, testidp.Options{Announce: map[string]string{name: plain}})
			s := newSession(idp, t.TempDir(), nil)
			prompted := false
			_, err := deviceLogin(t, s, auth.LoginOptions{Device: true}, func(p auth.Prompt) {
				prompted = true
				_ = idp.Browser().ApproveDevice(context.Background(), p.VerificationURIComplete, "bob", "bob-pw", true)
			})
			if !errors.Is(err, auth.ErrLoginFailed) || !strings.Contains(err.Error(), field+" "+plain) || !strings.Contains(err.Error(), "https") {
				t.Errorf("login: %v, want ErrLoginFailed naming %s %s", err, field, plain)
			}
			if prompted {
				t.Error("the user was prompted before the discovery document was refused")
			}
			if n := conns.Load(); n != 0 {
				t.Errorf("%d connections over plain http to the announced %s", n, field)
			}
		})
	}
}

// Plain http endpoints are allowed only with a plain-http loopback issuer
// (a local IdP), and then only on loopback.
func TestCheckEndpoint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		issuer, endpoint string
		ok               bool
	}{
		{"https://hanzo.id", "https://hanzo.id/oauth/token", true},
		{"https://hanzo.id", "https://keys.hanzo.example/jwks", true},
		{"https://hanzo.id", "http://hanzo.id/oauth/token", false},
		{"https://127.0.0.1:5556", "http://127.0.0.1:5556/oauth/token", false},
		{"http://127.0.0.1:5556", "http://127.0.0.1:5556/oauth/token", true},
		{"http://localhost:5556", "http://[::1]:5557/keys", true},
		{"http://127.0.0.1:5556", "http://idp.example/oauth/token", false},
		{"http://127.0.0.1:5556", "https://idp.example/oauth/token", true},
		{"https://hanzo.id", "ftp://hanzo.id/x", false},
		{"https://hanzo.id", "/oauth/token", false},
	} {
		if err := auth.CheckEndpoint(c.issuer, "token_endpoint", c.endpoint); (err == nil) != c.ok {
			t.Errorf("CheckEndpoint(%q, %q) = %v, want ok=%v", c.issuer, c.endpoint, err, c.ok)
		}
	}
}
