package ghtoken

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolveToken(t *testing.T) {
	dir := t.TempDir()
	ghDir := filepath.Join(dir, "gh")
	if err := os.MkdirAll(ghDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// hosts.yml as gh writes it: host-level token (older gh) and per-user
	// tokens under users (newer gh), plus an Enterprise host.
	hosts := `github.com:
    users:
        octocat:
            oauth_token: gho_from_users
    git_protocol: https
    user: octocat
ghe.example.com:
    oauth_token: gho_enterprise
    user: admin
`
	if err := os.WriteFile(filepath.Join(ghDir, "hosts.yml"), []byte(hosts), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		name, host        string
		env               map[string]string
		wantTok, wantFrom string
	}{
		{"GH_TOKEN first", "github.com", map[string]string{"GH_TOKEN": "a", "GITHUB_TOKEN": "b", "GH_CONFIG_DIR": ghDir}, "a", "$GH_TOKEN"},
		{"GITHUB_TOKEN next", "github.com", map[string]string{"GITHUB_TOKEN": "b", "GH_CONFIG_DIR": ghDir}, "b", "$GITHUB_TOKEN"},
		{"gh login via GH_CONFIG_DIR", "github.com", map[string]string{"GH_CONFIG_DIR": ghDir}, "gho_from_users", filepath.Join(ghDir, "hosts.yml")},
		{"gh login via XDG_CONFIG_HOME", "github.com", map[string]string{"XDG_CONFIG_HOME": dir}, "gho_from_users", filepath.Join(ghDir, "hosts.yml")},
		{"enterprise ignores GH_TOKEN", "ghe.example.com", map[string]string{"GH_TOKEN": "a", "GH_CONFIG_DIR": ghDir}, "gho_enterprise", filepath.Join(ghDir, "hosts.yml")},
		{"enterprise env", "ghe.example.com", map[string]string{"GH_ENTERPRISE_TOKEN": "e"}, "e", "$GH_ENTERPRISE_TOKEN"},
		{"nothing: anonymous", "github.com", map[string]string{"HOME": t.TempDir()}, "", ""},
		{"host not logged in", "other.example.com", map[string]string{"GH_CONFIG_DIR": ghDir}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, from := Resolve(tc.host, env(tc.env), nil)
			if tok != tc.wantTok || from != tc.wantFrom {
				t.Errorf("ResolveToken = %q from %q, want %q from %q", tok, from, tc.wantTok, tc.wantFrom)
			}
		})
	}
}

// The token travels only over TLS, or in clear only to this machine.
func TestSafeURL(t *testing.T) {
	for base, ok := range map[string]bool{
		"": true, "https://ghe.example.com/api/v3/": true, "http://127.0.0.1:8080/": true,
		"http://localhost/": true, "http://[::1]:9/": true, "http://ghe.example.com/": false, "http://10.0.0.1/": false,
	} {
		if got := SafeURL(base); got != ok {
			t.Errorf("SafeURL(%q) = %v, want %v", base, got, ok)
		}
	}
}

func TestHost(t *testing.T) {
	for base, want := range map[string]string{
		"": "github.com", "https://api.github.com/": "github.com",
		"https://ghe.example.com/api/v3/": "ghe.example.com", "https://api.ghe.example.com": "ghe.example.com",
	} {
		if got := Host(base); got != want {
			t.Errorf("Host(%q) = %q, want %q", base, got, want)
		}
	}
}
