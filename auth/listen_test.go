package auth_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// --listen-address: the authorization code flow receives its redirect on
// the address asked for (e.g. the end of an ssh -L tunnel), and an address
// that cannot be used is an error that names it, never a silent switch to
// the device flow.
func TestLoginListensWhereAsked(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	errs := make(chan error, 1)
	var redirect string
	who, err := s.Login(ctx, auth.LoginOptions{
		ListenAddress: addr,
		OpenBrowser: func(u string) error {
			redirect = queryParam(u, "redirect_uri")
			go func() { errs <- idp.Browser().LoginCode(ctx, u, "alice", "alice-pw") }()
			return nil
		},
	})
	if err != nil {
		t.Fatalf("login on %s: %v", addr, err)
	}
	if err := <-errs; err != nil {
		t.Fatalf("browser: %v", err)
	}
	if redirect != "http://"+addr+"/callback" || who.User != "alice" {
		t.Errorf("redirect %q, user %q; want http://%s/callback, alice", redirect, who.User, addr)
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	opened := false
	_, err = s.Login(ctx, auth.LoginOptions{
		ListenAddress: busy.Addr().String(),
		OpenBrowser:   func(string) error { opened = true; return nil },
		Prompt: func(p auth.Prompt) {
			if p.Kind == auth.PromptDeviceCode {
				t.Error("a busy --listen-address fell back to the device flow")
			}
		},
	})
	if err == nil || !strings.Contains(err.Error(), busy.Addr().String()) || opened {
		t.Errorf("busy address: err %v (want one naming %s), browser opened %v", err, busy.Addr(), opened)
	}
}
