package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// The Rust hanzo CLI's token directory, open to others, is made private by
// any command that reads the login, as ~/.hanzo is, and the user is told.
func TestRustCLIStoreIsTightened(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.vars["HOME"], ".local", "share", "hanzo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e.run(t, "whoami").expect(t, ExitError, "not logged in", dir+" was open to others (mode 0755); tightened to 0700")
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v, %v; want 0700", dir, fi.Mode().Perm(), err)
	}
}
