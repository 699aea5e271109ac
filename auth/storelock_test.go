package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// TestLogoutWaitsForARefreshAndStaysLoggedOut: a logout while another
// process holds the store's lock (refreshing) waits for it, and removes the
// login the refresh wrote: the refresh cannot resurrect it.
func TestLogoutWaitsForARefreshAndStaysLoggedOut(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	browserLogin(t, idp, s, "alice", "alice-pw")

	unlock, err := auth.NewStore(dir).Lock(context.Background()) // a refresher elsewhere
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Logout(context.Background()); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("logout did not wait for the refresh holding the lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	// The refresher writes its rotated token, then lets go.
	refreshed := readCreds(t, dir)
	refreshed.AccessToken, refreshed.Expiry = refreshed.AccessToken+"x", time.Now().Add(time.Hour)
	if err := auth.NewStore(dir).Save(refreshed); err != nil {
		t.Fatal(err)
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := auth.NewStore(dir).Load(); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("after logout during a refresh: %v, want logged out", err)
	}
}

// cancelOnRefresh cancels the caller's context as soon as the refresh
// request has gone out, like a board that quits mid-refresh.
type cancelOnRefresh struct {
	next   http.RoundTripper
	cancel context.CancelFunc
}

func (c cancelOnRefresh) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "/token") || c.cancel == nil {
		return c.next.RoundTrip(r)
	}
	resp, err := c.next.RoundTrip(r) // the IdP has rotated the token now
	c.cancel()
	if err == nil { // its answer is still on the wire for a request bound to the caller
		resp.Body = ctxBody{ReadCloser: resp.Body, ctx: r.Context()}
	}
	return resp, err
}

// ctxBody fails reads once ctx is done, as a body still in transit does.
type ctxBody struct {
	io.ReadCloser
	ctx context.Context
}

func (b ctxBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	return b.ReadCloser.Read(p)
}

// TestRefreshOutlivesItsCaller: a caller that gives up once the single-use
// refresh token is spent loses nothing: the rotated token is written, and
// the next refresh uses it (the IdP's replay detection stays silent).
func TestRefreshOutlivesItsCaller(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	old := readCreds(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	hc := idp.HTTPClient()
	hc.Transport = cancelOnRefresh{next: hc.Transport, cancel: cancel}
	s := auth.NewSession(auth.Options{Settings: auth.Settings{Issuer: idp.Issuer, ClientID: "hanzo-cli"},
		Store: auth.NewStore(dir), HTTPClient: hc})
	writeExpiry(t, dir, time.Now().Add(time.Minute))
	// The hanzo CLI switched its active identity meanwhile: a refresh of
	// this login must not switch it back (only a login does).
	var ids map[string]any
	readJSON(t, filepath.Join(dir, "identities.json"), &ids)
	ids["active"] = "acme/someone-else"
	ids["identities"].(map[string]any)["acme/someone-else"] = map[string]any{"subject": "u-other", "access_token": "other-at"}
	b, _ := json.Marshal(ids)
	writeFile(t, dir, "identities.json", string(b))

	_, _ = s.Token(ctx) // the caller is gone by the time the IdP answers
	if ctx.Err() == nil {
		t.Fatal("the refresh request never went out")
	}
	cur := readCreds(t, dir)
	if cur.RefreshToken == old.RefreshToken || cur.AccessToken == old.AccessToken {
		t.Fatalf("the rotated token was lost when the caller gave up")
	}
	readJSON(t, filepath.Join(dir, "identities.json"), &ids)
	if ids["active"] != "acme/someone-else" {
		t.Errorf("the refresh switched the active identity to %v", ids["active"])
	}
	writeExpiry(t, dir, time.Now().Add(time.Minute))
	if _, err := newSession(idp, dir, nil).Token(context.Background()); err != nil || idp.Refreshes() != 2 {
		t.Errorf("the next refresh: %v (refreshes %d), want it to succeed with the rotated token", err, idp.Refreshes())
	}
}

// TestSymlinkedCredentialsAreWrittenThrough: a credentials.json that is a
// symlink (to a file of the user's inside the store; others are refused,
// storelink_test.go) stays one; the login is written to its target.
func TestSymlinkedCredentialsAreWrittenThrough(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "profiles")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(elsewhere, "hanzo-credentials.json")
	writeFile(t, elsewhere, "hanzo-credentials.json", `{}`)
	if err := os.Symlink(target, filepath.Join(dir, "credentials.json")); err != nil {
		t.Fatal(err)
	}
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	fi, err := os.Lstat(filepath.Join(dir, "credentials.json"))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("credentials.json is no longer a symlink (%v)", err)
	}
	var c map[string]any
	readJSON(t, target, &c)
	if c["access_token"] == nil || c["access_token"] == "" {
		t.Errorf("the link's target does not hold the login: %v", c)
	}
}

// TestTightenMakesTheStorePrivate: a store directory open to others is
// tightened to 0700 with a notice; a private one is left as it is.
func TestTightenMakesTheStorePrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), ".hanzo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	notice, err := auth.NewStore(dir).Tighten()
	fi, _ := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 || !strings.Contains(notice, "tightened to 0700") {
		t.Fatalf("Tighten: mode %v, notice %q, err %v", fi.Mode().Perm(), notice, err)
	}
	if notice, err := auth.NewStore(dir).Tighten(); notice != "" || err != nil {
		t.Errorf("a private store: notice %q, err %v", notice, err)
	}
}
