package githubforge

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/hanzoai/driftboard/internal/promote"
)

// nameRE is what GitHub allows in an owner's or a repository's name.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

// ParseRepoURL reads an Application's spec.source.repoURL
// (https://host/o/r(.git), git@host:o/r.git, ssh://git@host(:port)/o/r.git)
// into a Repo on host, the configured GitHub host. Any other host, scheme or
// shape is refused: the URL is outside input and never chooses where a
// request, or the token, goes.
func ParseRepoURL(raw, host string) (promote.Repo, error) {
	raw = strings.TrimSpace(raw)
	refuse := func(why string) (promote.Repo, error) {
		return promote.Repo{}, &promote.Refused{Reason: "repository URL " + quote(raw) + ": " + why}
	}
	var gotHost, path string
	if rest, ok := strings.CutPrefix(raw, "git@"); ok && !strings.Contains(raw, "://") {
		h, p, found := strings.Cut(rest, ":")
		if !found {
			return refuse("not host:owner/name")
		}
		gotHost, path = h, p
	} else {
		u, err := url.Parse(raw)
		if err != nil {
			return refuse("not a URL")
		}
		switch {
		case u.Scheme == "https":
		case u.Scheme == "ssh" && (u.User == nil || u.User.Username() == "git"):
		default:
			return refuse("only https:// and ssh:// (git@) URLs name a GitHub repository")
		}
		if _, hasPassword := u.User.Password(); hasPassword || (u.Scheme == "https" && u.User != nil) {
			return refuse("carries credentials")
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return refuse("has a query or fragment")
		}
		gotHost, path = u.Hostname(), u.Path
	}
	if !strings.EqualFold(gotHost, host) {
		return refuse("on " + quote(gotHost) + ", not the configured GitHub host " + host)
	}
	path = strings.TrimSuffix(strings.TrimSuffix(strings.Trim(path, "/"), "/"), ".git")
	owner, name, ok := strings.Cut(path, "/")
	if !ok || !nameRE.MatchString(owner) || !nameRE.MatchString(name) || name == "." || name == ".." || strings.HasPrefix(owner, ".") {
		return refuse("not owner/name")
	}
	return promote.Repo{Owner: owner, Name: name}, nil
}

// quote shows outside text in a reason, escaped and bounded.
func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strconv.Quote(s)
}
