package releasereader

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GHStore reads gh's own store through go-gh: a hosts.yml as gh writes it
// in a temporary GH_CONFIG_DIR. With the token in the keyring, hosts.yml has
// none and gh is asked ("gh auth token --secure-storage"); with no gh binary
// ($GH_PATH names none here) that finds nothing: anonymous, not an error.
// go-gh reads its config once per process, so each case runs in a child
// process of this test binary.
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

// The token found in the store is the one sent, and Status names its
// source; env and hosts.yml come first.
func TestTokenStoreIsTheLastResort(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.0.0", assets: 1})
	asked := 0
	store := func(host string) (string, string) {
		asked++
		return "gho_keyring", "gh auth token (system keyring)"
	}
	r := newTestReader(t, srv.URL, clock, func(o *Options) {
		o.Token, o.TokenStore = "", store
		o.Getenv = func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] }
	})
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.0.0"}})
	r.refresh(context.Background())
	if gh.auth != "Bearer gho_keyring" {
		t.Errorf("Authorization %q, want the store's token", gh.auth)
	}
	if st := r.Status(); st.TokenSource != "gh auth token (system keyring)" || st.Warning != "" {
		t.Errorf("status %+v", st)
	}
	if r.Checks().Anonymous {
		t.Error("checks say anonymous with a token")
	}
	asked = 0
	tok, src := ResolveToken("ghe.example.com", func(k string) string {
		return map[string]string{"GH_ENTERPRISE_TOKEN": "e"}[k]
	}, store)
	if tok != "e" || src != "$GH_ENTERPRISE_TOKEN" || asked != 0 {
		t.Errorf("env before the store: %q from %q, store asked %d times", tok, src, asked)
	}
}

// The token travels only over TLS, or in clear only to this machine.
func TestTokenNotSentInClear(t *testing.T) {
	clock := newFakeClock()
	r := newTestReader(t, "http://ghe.example.com/api/v3/", clock, nil)
	st := r.Status()
	if st.TokenSource != "" || !r.Checks().Anonymous || st.Warning == "" {
		t.Errorf("a plain-HTTP GitHub URL off this machine: %+v, want the token dropped and a warning", st)
	}
	for base, ok := range map[string]bool{
		"": true, "https://ghe.example.com/api/v3/": true, "http://127.0.0.1:8080/": true,
		"http://localhost/": true, "http://[::1]:9/": true, "http://ghe.example.com/": false, "http://10.0.0.1/": false,
	} {
		if got := tokenSafeURL(base); got != ok {
			t.Errorf("tokenSafeURL(%q) = %v, want %v", base, got, ok)
		}
	}
}
