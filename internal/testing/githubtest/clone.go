package githubtest

import (
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
)

// Clone clones the repository over git's smart HTTP (trusting this server's
// certificate only) into a new directory and returns it.
func (s *Server) Clone() string {
	s.t.Helper()
	dir := s.t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	if err := os.WriteFile(ca, cert, 0o600); err != nil {
		s.t.Fatal(err)
	}
	work := filepath.Join(dir, s.opts.Name)
	cmd := exec.Command("git", "clone", "-q", s.CloneURL(), work)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "GIT_SSL_CAINFO="+ca)
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git clone %s: %v\n%s", s.CloneURL(), err, out)
	}
	return work
}
