package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// deviceLogin runs the device flow; approve decides what the user does with
// the code it is shown.
func deviceLogin(t *testing.T, s *auth.Session, opts auth.LoginOptions, approve func(auth.Prompt)) (auth.WhoAmI, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	opts.Prompt = func(p auth.Prompt) {
		if p.Kind == auth.PromptDeviceCode {
			go approve(p)
		}
	}
	return s.Login(ctx, opts)
}

func TestDeviceFlowEndToEnd(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	var shown auth.Prompt
	who, err := deviceLogin(t, s, auth.LoginOptions{Device: true}, func(p auth.Prompt) {
		shown = p
		if err := idp.Browser().ApproveDevice(context.Background(), p.VerificationURIComplete, "alice", "alice-pw", true); err != nil {
			t.Errorf("approve: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("device login: %v", err)
	}
	if shown.UserCode == "" || !strings.HasPrefix(shown.VerificationURI, idp.Issuer+"/device") ||
		!strings.Contains(shown.VerificationURIComplete, "user_code=") {
		t.Errorf("prompt lacks code or URIs: %+v", shown)
	}
	if who.Subject != "u-alice" || who.User != "alice" || who.HomeOrg != "acme" || !who.OrgAdmin || who.SuperAdmin || who.Role != "OrgAdmin of acme" {
		t.Errorf("whoami after device login = %+v", who)
	}
	c := readCreds(t, dir)
	if c.AccessToken == "" || c.RefreshToken == "" || c.Subject != "u-alice" || c.Owner != "acme" || c.Expiry.Before(time.Now()) {
		t.Errorf("stored credentials = %v", c)
	}
	// Device-flow refresh tokens must be bound to the client: refresh works.
	writeExpiry(t, dir, time.Now().Add(time.Minute))
	if _, err := s.Token(context.Background()); err != nil {
		t.Fatalf("refresh after device login: %v", err)
	}
	if got := idp.Refreshes(); got != 1 {
		t.Errorf("refresh requests = %d, want 1", got)
	}
}

func TestDeviceFlowDeniedAndExpired(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{DeviceLifetime: 2 * time.Second})
	s := newSession(idp, t.TempDir(), nil)
	_, err := deviceLogin(t, s, auth.LoginOptions{Device: true}, func(p auth.Prompt) {
		if err := idp.Browser().ApproveDevice(context.Background(), p.VerificationURIComplete, "bob", "bob-pw", false); err != nil {
			t.Errorf("deny: %v", err)
		}
	})
	if !errors.Is(err, auth.ErrAccessDenied) {
		t.Errorf("denied login: err = %v, want ErrAccessDenied", err)
	}
	_, err = deviceLogin(t, s, auth.LoginOptions{Device: true}, func(auth.Prompt) {})
	if !errors.Is(err, auth.ErrDeviceCodeExpired) {
		t.Errorf("unanswered login: err = %v, want ErrDeviceCodeExpired", err)
	}
}

func TestPKCEEndToEnd(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	who := browserLogin(t, idp, s, "root", "root-pw")
	if !who.SuperAdmin || who.Role != "SuperAdmin" || who.Email != "root@hanzo.test" {
		t.Errorf("whoami after browser login = %+v", who)
	}
	if n := idp.TokenRequests("authorization_code"); n != 1 {
		t.Errorf("code exchanges = %d, want 1", n)
	}
	info, err := os.Stat(filepath.Join(dir, "credentials.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("credentials.json mode: %v %v", info, err)
	}
}

func TestBrowserUnavailableFallsBackToDeviceFlow(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	var note string
	who, err := deviceLogin(t, s, auth.LoginOptions{
		OpenBrowser: func(string) error { return errors.New("no display") },
	}, func(p auth.Prompt) {
		note = p.Note
		if err := idp.Browser().ApproveDevice(context.Background(), p.VerificationURIComplete, "bob", "bob-pw", true); err != nil {
			t.Errorf("approve: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("fallback login: %v", err)
	}
	if who.OrgAdmin || who.Role != "member of acme" || !strings.Contains(note, "no browser") {
		t.Errorf("who = %+v, note = %q", who, note)
	}
}

func TestPKCETimeoutAndStateMismatch(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	ctx := context.Background()
	_, err := s.Login(ctx, auth.LoginOptions{OpenBrowser: func(string) error { return nil }, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, auth.ErrLoginTimeout) {
		t.Errorf("no redirect: err = %v, want ErrLoginTimeout", err)
	}
	// A redirect carrying another state (a forged or stale callback) is
	// answered 400 and does not end the login: it times out waiting for the
	// right one, and says what it refused.
	forged := make(chan int, 1)
	_, err = s.Login(ctx, auth.LoginOptions{Timeout: 2 * time.Second, OpenBrowser: func(u string) error {
		go func() {
			redirect := queryParam(u, "redirect_uri")
			resp, err := idp.HTTPClient().Get(redirect + "?code=forged&state=wrong")
			if err != nil {
				forged <- 0
				return
			}
			resp.Body.Close()
			forged <- resp.StatusCode
		}()
		return nil
	}})
	if !errors.Is(err, auth.ErrLoginTimeout) || !strings.Contains(err.Error(), "another state") {
		t.Errorf("forged redirect: err = %v, want a timeout naming the refused redirect", err)
	}
	if code := <-forged; code != http.StatusBadRequest {
		t.Errorf("forged redirect answered %d, want 400", code)
	}
}

// TestPKCEWrongStateDoesNotAbortTheLogin: another local process sends the
// loopback listener a callback with a wrong state first (and one claiming
// the user refused); it gets 400 and the user's own redirect then logs in.
func TestPKCEWrongStateDoesNotAbortTheLogin(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	s := newSession(idp, t.TempDir(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errs := make(chan error, 1)
	who, err := s.Login(ctx, auth.LoginOptions{OpenBrowser: func(u string) error {
		go func() {
			redirect := queryParam(u, "redirect_uri")
			for _, q := range []string{"?code=forged&state=wrong", "?error=access_denied&state=wrong", "?code=forged"} {
				resp, err := http.Get(redirect + q)
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest {
					errs <- fmt.Errorf("a callback %s answered %d, want 400", q, resp.StatusCode)
					return
				}
			}
			errs <- idp.Browser().LoginCode(ctx, u, "alice", "alice-pw")
		}()
		return nil
	}})
	if err != nil {
		t.Fatalf("login after forged callbacks: %v", err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if who.Subject != "u-alice" {
		t.Errorf("logged in as %q, want u-alice", who.Subject)
	}
}

// TestDiscoveryFailureIsAnError: an issuer whose discovery fails (here one
// that serves only Hanzo's /v1/iam paths, and the same issuer with a
// trailing slash, which discovery's exact issuer check refuses) is an
// error; no endpoint path is invented and the issuer is never trimmed.
func TestDiscoveryFailureIsAnError(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{HanzoPaths: true})
	s := newSession(idp, t.TempDir(), nil)
	_, err := deviceLogin(t, s, auth.LoginOptions{Device: true}, func(p auth.Prompt) {
		t.Errorf("a login prompt without discovery: %+v", p)
	})
	if !errors.Is(err, auth.ErrIdPUnavailable) || !strings.Contains(err.Error(), "OIDC discovery of issuer "+idp.Issuer) {
		t.Errorf("login without discovery: err = %v, want a discovery error", err)
	}

	good := testidp.Start(t, testidp.Options{})
	slash := auth.NewSession(auth.Options{Settings: auth.Settings{Issuer: good.Issuer + "/", ClientID: "hanzo-cli"},
		Store: auth.NewStore(t.TempDir()), HTTPClient: good.HTTPClient()})
	if slash.Issuer() != good.Issuer+"/" {
		t.Errorf("issuer = %q, want it exactly as configured", slash.Issuer())
	}
	_, err = deviceLogin(t, slash, auth.LoginOptions{Device: true}, func(p auth.Prompt) {
		t.Errorf("a login prompt for a mismatched issuer: %+v", p)
	})
	if !errors.Is(err, auth.ErrIdPUnavailable) {
		t.Errorf("issuer with a slash the IdP does not use: err = %v, want a discovery error", err)
	}
}

func TestCheckIssuer(t *testing.T) {
	t.Parallel()
	for issuer, ok := range map[string]bool{
		"https://hanzo.id": true, "https://idp.example/": true, "http://127.0.0.1:5556": true, "http://localhost:1/x": true,
		"http://[::1]:80": true, "http://hanzo.id": false, "http://10.0.0.1": false, "ftp://hanzo.id": false, "hanzo.id": false,
	} {
		if err := auth.CheckIssuer(issuer); (err == nil) != ok {
			t.Errorf("CheckIssuer(%q) = %v, want ok=%v", issuer, err, ok)
		}
	}
}
