// Package ghtoken finds the user's GitHub token the way the gh CLI does and
// binds it to the one configured API host, so no other host ever receives it.
package ghtoken

import (
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	ghauth "github.com/cli/go-gh/v2/pkg/auth"
	"sigs.k8s.io/yaml"
)

// Host is the host whose token to use for an API base URL: github.com for
// "" and api.github.com, an Enterprise host's name otherwise.
func Host(apiURL string) string {
	if apiURL == "" {
		return "github.com"
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Hostname() == "" || u.Hostname() == "api.github.com" {
		return "github.com"
	}
	return strings.TrimPrefix(u.Hostname(), "api.")
}

// Resolve finds a GitHub token for host (github.com, or an Enterprise
// host) the way the gh CLI does: GH_TOKEN, GITHUB_TOKEN (GH_ENTERPRISE_TOKEN,
// GITHUB_ENTERPRISE_TOKEN for other hosts), then oauth_token for the host in
// gh's hosts.yml ($GH_CONFIG_DIR, $XDG_CONFIG_HOME/gh, ~/.config/gh), then
// store (GHStore in production: gh's own store, the system keyring
// included). It returns "" when there is none; source names where the token
// came from (never the token itself). The first two steps read getenv, so a
// caller's environment is the one that counts.
func Resolve(host string, getenv func(string) string, store func(host string) (token, source string)) (token, source string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if host == "" {
		host = "github.com"
	}
	vars := []string{"GH_TOKEN", "GITHUB_TOKEN"}
	if host != "github.com" {
		vars = []string{"GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}
	}
	for _, v := range vars {
		if t := strings.TrimSpace(getenv(v)); t != "" {
			return t, "$" + v
		}
	}
	if path := ghHostsFile(getenv); path != "" {
		if t := tokenFromHostsFile(path, host); t != "" {
			return t, path
		}
	}
	if store != nil {
		return store(host)
	}
	return "", ""
}

// GHStore is gh's own token store through go-gh: its config, then the
// system keyring, which gh reaches as "gh auth token --secure-storage" (so
// only where the gh binary is installed, or named by $GH_PATH). It reads the
// process environment.
func GHStore(host string) (token, source string) {
	t, src := ghauth.TokenForHost(host)
	t = strings.TrimSpace(t)
	switch {
	case t == "":
		return "", ""
	case src == "gh":
		return t, "gh auth token (system keyring)"
	case src == "oauth_token":
		return t, "gh config"
	}
	return t, "$" + src
}

func ghHostsFile(getenv func(string) string) string {
	if d := getenv("GH_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "hosts.yml")
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "gh", "hosts.yml")
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(home, ".config", "gh", "hosts.yml")
}

// ghHost is the part of one hosts.yml entry we read. Older gh versions keep
// oauth_token at the host level; newer ones also under users.<login>.
type ghHost struct {
	User       string `json:"user"`
	OAuthToken string `json:"oauth_token"`
	Users      map[string]struct {
		OAuthToken string `json:"oauth_token"`
	} `json:"users"`
}

func tokenFromHostsFile(path, host string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 1<<20 {
		return ""
	}
	var hosts map[string]ghHost
	if yaml.Unmarshal(data, &hosts) != nil {
		return ""
	}
	h, ok := hosts[host]
	if !ok {
		return ""
	}
	if h.OAuthToken != "" {
		return h.OAuthToken
	}
	if u, ok := h.Users[h.User]; ok {
		return u.OAuthToken
	}
	return ""
}

// SafeURL: the token goes to the GitHub API over TLS, or over plain
// HTTP only to this machine (a loopback test server).
func SafeURL(base string) bool {
	if base == "" {
		return true // api.github.com over https
	}
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	if u.Scheme == "https" {
		return true
	}
	if u.Scheme != "http" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(u.Hostname())
	return err == nil && ip.IsLoopback()
}
