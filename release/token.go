package release

import (
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// AnonymousWarning is shown when no GitHub token was found.
const AnonymousWarning = "GitHub: no token, anonymous (60 requests/hour): set GH_TOKEN or run gh auth login"

// ResolveToken finds a GitHub token for host (github.com, or an Enterprise
// host) the way the gh CLI does: GH_TOKEN, GITHUB_TOKEN (GH_ENTERPRISE_TOKEN,
// GITHUB_ENTERPRISE_TOKEN for other hosts), then oauth_token for the host in
// gh's hosts.yml ($GH_CONFIG_DIR, $XDG_CONFIG_HOME/gh, ~/.config/gh). It
// returns "" when there is none; source names where the token came from
// (never the token itself). gh logins kept in the system keyring are not in
// hosts.yml; those users set GH_TOKEN=$(gh auth token).
func ResolveToken(host string, getenv func(string) string) (token, source string) {
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
	path := ghHostsFile(getenv)
	if path == "" {
		return "", ""
	}
	if t := tokenFromHostsFile(path, host); t != "" {
		return t, path
	}
	return "", ""
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
