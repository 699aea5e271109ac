package githubtest

import (
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
)

// CertFile writes the server's certificate as PEM and returns its path, for
// a process that must trust the server (git's GIT_SSL_CAINFO, Go's
// SSL_CERT_FILE for a built binary).
func (s *Server) CertFile() string {
	s.t.Helper()
	path := filepath.Join(s.t.TempDir(), "githubtest-ca.pem")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	if err := os.WriteFile(path, cert, 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// Clone clones the repository over git's smart HTTP (trusting this server's
// certificate only) into a new directory and returns it.
func (s *Server) Clone() string {
	s.t.Helper()
	work := filepath.Join(s.t.TempDir(), s.opts.Name)
	cmd := exec.Command("git", "clone", "-q", s.CloneURL(), work)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_SSL_CAINFO="+s.CertFile())
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git clone %s: %v\n%s", s.CloneURL(), err, out)
	}
	return work
}
