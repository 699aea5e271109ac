package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// rustCLI is a Rust hanzo CLI's store in a temp home: the token map and
// config.toml, written as the CLI writes them.
type rustCLI struct {
	store *auth.RustStore
}

func newRustCLI(t *testing.T) rustCLI {
	t.Helper()
	home := t.TempDir()
	st := auth.DefaultRustStore(func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	})
	if err := os.MkdirAll(filepath.Dir(st.Credentials), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(st.Config), 0o700); err != nil {
		t.Fatal(err)
	}
	return rustCLI{store: st}
}

// login files user's real tokens (got from idp) as the CLI's active
// identity owner/name, beside an entry of another identity.
func (r rustCLI) login(t *testing.T, idp *testidp.Server, user, password, owner, name string) *auth.Credentials {
	t.Helper()
	scratch := t.TempDir()
	browserLogin(t, idp, newSession(idp, scratch, nil), user, password)
	c := readCreds(t, scratch)
	set, _ := json.Marshal(map[string]any{"access_token": c.AccessToken, "token_type": "Bearer",
		"refresh_token": c.RefreshToken, "id_token": "kept-id-token", "expires_in": 300, "scope": "openid profile email"})
	m := map[string]string{"hanzo/" + owner + "/" + name: string(set), "hanzo/zoo/other": `{"access_token":"other-at"}`}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(r.store.Credentials, b, 0o600); err != nil {
		t.Fatal(err)
	}
	conf := `[auth]
provider = "hanzo"

[auth.active]
hanzo = "` + owner + "/" + name + `"
lux = "zoo/other"

[[auth.identities]]
brand = "hanzo"
owner = "` + owner + `"
name = "` + name + `"

[[auth.identities]]
brand = "hanzo"
owner = "zoo"
name = "other"

[code]
link = true
`
	if err := os.WriteFile(r.store.Config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// entry is the token set the map holds for key (the CLI stores it as a JSON string).
func (r rustCLI) entry(t *testing.T, key string) map[string]any {
	t.Helper()
	var m map[string]string
	readJSON(t, r.store.Credentials, &m)
	var set map[string]any
	if s, ok := m[key]; ok {
		if err := json.Unmarshal([]byte(s), &set); err != nil {
			t.Fatalf("entry %s is not a token set in a string: %v", key, err)
		}
	}
	return set
}

func rustSession(idp *testidp.Server, dir string, r rustCLI, now func() time.Time) *auth.Session {
	return auth.NewSession(auth.Options{
		Settings: auth.Settings{Issuer: idp.Issuer, ClientID: "hanzo-cli"},
		Store:    auth.NewStore(dir), RustStore: r.store, HTTPClient: idp.HTTPClient(), Now: now,
	})
}

// TestRustCLILoginIsUsedAndRefreshedInItsStore: a user who only ran the Rust
// CLI's login is logged in; a due token is refreshed under the CLI's
// refresh.lock and written back to its map (its other entries and fields
// kept), never to ~/.hanzo.
func TestRustCLILoginIsUsedAndRefreshedInItsStore(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	r := newRustCLI(t)
	old := r.login(t, idp, "alice", "alice-pw", "acme", "alice")
	dir := t.TempDir()

	who, err := rustSession(idp, dir, r, nil).WhoAmI(context.Background())
	if err != nil || who.Subject != "u-alice" || who.Source != r.store.Credentials {
		t.Fatalf("whoami with only the Rust CLI's login: %+v, %v", who, err)
	}

	// The CLI is refreshing: hold its refresh lock, as it does.
	cliLock := flock.New(filepath.Join(filepath.Dir(r.store.Credentials), "refresh.lock"))
	if err := cliLock.Lock(); err != nil {
		t.Fatal(err)
	}
	later := func() time.Time { return time.Now().Add(4 * time.Minute) } // inside the refresh margin
	done := make(chan error, 1)
	go func() { _, err := rustSession(idp, dir, r, later).Token(context.Background()); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("the refresh did not wait for the Rust CLI's refresh.lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	_ = cliLock.Unlock()
	if err := <-done; err != nil {
		t.Fatalf("refresh of the Rust CLI's login: %v", err)
	}
	set := r.entry(t, "hanzo/acme/alice")
	if set["access_token"] == old.AccessToken || set["refresh_token"] == old.RefreshToken || set["refresh_token"] == "" {
		t.Errorf("the rotated token was not written back to the Rust CLI's store")
	}
	if set["id_token"] != "kept-id-token" || set["scope"] != "openid profile email" {
		t.Errorf("fields of the entry were lost: %v", set)
	}
	if other := r.entry(t, "hanzo/zoo/other"); other["access_token"] != "other-at" {
		t.Errorf("another identity's entry changed: %v", other)
	}
	if _, err := os.Stat(filepath.Join(dir, "credentials.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refreshed Rust CLI login was written to ~/.hanzo too (%v)", err)
	}
	// The next refresh uses the rotated token: no replay at the IdP.
	if _, err := rustSession(idp, dir, r, func() time.Time { return time.Now().Add(4 * time.Minute) }).Token(context.Background()); err != nil || idp.Replays() != 0 {
		t.Errorf("next refresh: %v, replays %d", err, idp.Replays())
	}
}

// TestNewestLoginOfBothStoresIsUsed: bob in ~/.hanzo, alice logged in later
// with the Rust CLI: alice is used; a driftboard login after that wins
// again. Logout logs out of both.
func TestNewestLoginOfBothStoresIsUsed(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	r := newRustCLI(t)
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "bob", "bob-pw")
	time.Sleep(1100 * time.Millisecond) // iat has whole seconds
	r.login(t, idp, "alice", "alice-pw", "acme", "alice")

	who, err := rustSession(idp, dir, r, nil).WhoAmI(context.Background())
	if err != nil || who.Subject != "u-alice" {
		t.Fatalf("whoami = %q (%v), want alice: the Rust CLI's login is the newer", who.Subject, err)
	}
	time.Sleep(1100 * time.Millisecond)
	browserLogin(t, idp, rustSession(idp, dir, r, nil), "root", "root-pw")
	if who, err := rustSession(idp, dir, r, nil).WhoAmI(context.Background()); err != nil || who.Subject != "u-root" {
		t.Fatalf("whoami after a driftboard login = %q (%v), want root", who.Subject, err)
	}

	if _, err := rustSession(idp, dir, r, nil).Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := rustSession(idp, dir, r, nil).WhoAmI(context.Background()); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("after logout: %v, want logged out of both stores", err)
	}
	if set := r.entry(t, "hanzo/acme/alice"); set != nil {
		t.Errorf("the Rust CLI's active login survived logout")
	}
	if other := r.entry(t, "hanzo/zoo/other"); other["access_token"] != "other-at" {
		t.Errorf("logout touched another identity: %v", other)
	}
}

// TestWatchSeesARustCLILogin: a login made with the Rust CLI while a session
// watches is reported within a second, and is the login then read.
func TestWatchSeesARustCLILogin(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	r := newRustCLI(t)
	dir := t.TempDir()
	s := rustSession(idp, dir, r, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 10)
	go s.Watch(ctx, func() { changed <- struct{}{} })
	time.Sleep(100 * time.Millisecond) // watching
	r.login(t, idp, "alice", "alice-pw", "acme", "alice")
	select {
	case <-changed:
	case <-time.After(2 * time.Second):
		t.Fatal("a Rust CLI login was not noticed within 2 s")
	}
	if who, err := s.WhoAmI(context.Background()); err != nil || who.Subject != "u-alice" {
		t.Errorf("after the change: %q, %v", who.Subject, err)
	}
}
