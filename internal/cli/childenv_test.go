package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mainChildEnv makes the test binary run Main with these arguments, as the
// driftboard binary would, in its own process (Main changes the process's
// environment).
const mainChildEnv = "DRIFTBOARD_TEST_MAIN"

// TestCredentialsNotInheritedByChildren: the browser opener login starts
// sees neither HANZO_TOKEN nor a GitHub token from driftboard's
// environment; the rest of the environment it does get.
func TestCredentialsNotInheritedByChildren(t *testing.T) {
	iss := startIssuer(t)
	bin, home := t.TempDir(), t.TempDir()
	dump := filepath.Join(t.TempDir(), "browser-env")
	script := "#!/bin/sh\nenv > " + dump + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{"HANZO_TOKEN": "hanzo-secret-token", "GH_TOKEN": "gh-secret-token",
		"GITHUB_TOKEN": "github-secret-token", "GH_ENTERPRISE_TOKEN": "ghe-secret-token", "GITHUB_ENTERPRISE_TOKEN": "ghe2-secret-token"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{mainChildEnv + "=login --grant-type authcode --timeout 3s",
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
		"HANZO_HOME=" + filepath.Join(home, ".hanzo"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"HANZO_IAM_ISSUER=" + iss.URL(), "DISPLAY=:0", "KEPT_FOR_CHILDREN=yes"}
	for k, v := range secrets {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, _ := cmd.CombinedOutput() // the login times out: nobody logs in
	deadline := time.Now().Add(5 * time.Second)
	var env []byte
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(dump); err == nil && len(b) > 0 {
			env = b
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(string(env), "KEPT_FOR_CHILDREN=yes") {
		t.Fatalf("the browser opener did not run or got no environment; driftboard said:\n%s", out)
	}
	for k, v := range secrets {
		if strings.Contains(string(env), v) {
			t.Errorf("the browser opener inherited %s", k)
		}
	}
}
