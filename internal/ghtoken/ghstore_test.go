package ghtoken

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestGHStoreReadsGhConfig(t *testing.T) {
	if os.Getenv("DRIFTBOARD_GHSTORE_CHILD") == "1" {
		tok, src := GHStore("github.com")
		fmt.Printf("token=%s source=%s\n", tok, src)
		return
	}
	for _, tc := range []struct {
		name, hosts, env, want string
	}{
		// gh ≥ 2.40 with --insecure-storage: the active user's token at the
		// host level and under users.
		{"insecure storage", "github.com:\n    users:\n        octocat:\n            oauth_token: gho_insecure\n    git_protocol: https\n    oauth_token: gho_insecure\n    user: octocat\n",
			"", "token=gho_insecure source=gh config"},
		// A keyring login: hosts.yml names the user only.
		{"keyring, no gh binary", "github.com:\n    users:\n        octocat:\n    git_protocol: https\n    user: octocat\n",
			"", "token= source="},
		{"GH_TOKEN first", "github.com:\n    oauth_token: gho_insecure\n    user: octocat\n",
			"ghp_env", "token=ghp_env source=$GH_TOKEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(tc.hosts), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestGHStoreReadsGhConfig$", "-test.count=1")
			cmd.Env = append(os.Environ(), "DRIFTBOARD_GHSTORE_CHILD=1", "GH_CONFIG_DIR="+dir,
				"GH_PATH="+filepath.Join(dir, "no-gh-here"), "GH_TOKEN="+tc.env, "GITHUB_TOKEN=", "HOME="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want+"\n") {
				t.Errorf("child said:\n%s\nwant %q", out, tc.want)
			}
		})
	}
}
