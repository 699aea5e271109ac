package auth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

const standInKeys = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIStandIn user@laptop\n"

// plantLink puts a symlink at link to a stand-in for ~/.ssh/authorized_keys
// outside the store, holding body; it returns the stand-in's path.
func plantLink(t *testing.T, link, body string) string {
	t.Helper()
	ssh := filepath.Join(t.TempDir(), ".ssh")
	if err := os.Mkdir(ssh, 0o700); err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(ssh, "authorized_keys")
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(keys, link); err != nil {
		t.Fatal(err)
	}
	return keys
}

// loginErr runs a browser login and returns its error (nil when it logged in).
func loginErr(t *testing.T, idp *testidp.Server, s *auth.Session) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.Login(ctx, auth.LoginOptions{OpenBrowser: func(u string) error {
		go func() { _ = idp.Browser().LoginCode(ctx, u, "alice", "alice-pw") }()
		return nil
	}})
	return err
}

// TestSymlinkOutOfTheStoreIsRefused: another local process planted
// credentials.json as a link to the user's authorized_keys; a login does not
// overwrite it but says why, naming the link and its target.
func TestSymlinkOutOfTheStoreIsRefused(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	keys := plantLink(t, filepath.Join(dir, "credentials.json"), standInKeys)
	err := loginErr(t, idp, newSession(idp, dir, nil))
	if b, _ := os.ReadFile(keys); string(b) != standInKeys {
		t.Fatal("the login was written through the link over the stand-in for authorized_keys")
	}
	if !errors.Is(err, auth.ErrStoreUnsafe) || !strings.Contains(err.Error(), "symlink") || !strings.Contains(err.Error(), keys) {
		t.Errorf("login: %v, want ErrStoreUnsafe naming the link's target", err)
	}
}

// TestSymlinkInTheRustStoreIsRefused: the Rust CLI's token map linked out of
// its directory is not written through by a refresh either.
func TestSymlinkInTheRustStoreIsRefused(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	r := newRustCLI(t)
	r.login(t, idp, "alice", "alice-pw", "acme", "alice")
	body, err := os.ReadFile(r.store.Credentials)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(r.store.Credentials); err != nil {
		t.Fatal(err)
	}
	// The stand-in holds the map, so the login reads and a refresh would write.
	keys := plantLink(t, r.store.Credentials, string(body))
	later := func() time.Time { return time.Now().Add(4 * time.Minute) } // inside the refresh margin
	_, err = rustSession(idp, t.TempDir(), r, later).Token(context.Background())
	if b, _ := os.ReadFile(keys); string(b) != string(body) {
		t.Fatal("the refresh was written through the link out of the Rust CLI's store")
	}
	if !errors.Is(err, auth.ErrStoreUnsafe) || !strings.Contains(err.Error(), keys) {
		t.Errorf("refresh: %v, want ErrStoreUnsafe naming the link's target", err)
	}
	if idp.Refreshes() != 0 {
		t.Errorf("%d refresh tokens spent though the new one could not be stored", idp.Refreshes())
	}
}

// TestRustStoreIsTightened: the Rust CLI's token directory open to others is
// made private, as ~/.hanzo is.
func TestRustStoreIsTightened(t *testing.T) {
	t.Parallel()
	r := newRustCLI(t)
	dir := filepath.Dir(r.store.Credentials)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	notice, err := r.store.Tighten()
	fi, _ := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 || !strings.Contains(notice, "tightened to 0700") {
		t.Fatalf("Tighten: mode %v, notice %q, err %v", fi.Mode().Perm(), notice, err)
	}
}

// TestSymlinkInsideTheStoreToNoFileIsRefused: inside the store, a link is
// written through only to a regular file.
func TestSymlinkInsideTheStoreToNoFileIsRefused(t *testing.T) {
	t.Parallel()
	for name, target := range map[string]string{"a directory": "profiles", "nothing": "gone.json"} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "profiles"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, target), filepath.Join(dir, "credentials.json")); err != nil {
			t.Fatal(err)
		}
		err := auth.NewStore(dir).Save(&auth.Credentials{AccessToken: "at", RefreshToken: "rt"})
		if !errors.Is(err, auth.ErrStoreUnsafe) {
			t.Errorf("a link to %s: Save = %v, want ErrStoreUnsafe", name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "gone.json")); err == nil {
			t.Errorf("a link to %s: the dangling link's target was created", name)
		}
	}
}
