package release

import (
	"fmt"
	"strings"
)

// RepoTag is one (repository, declared tag) pair on the board. Repo is either
// the row's image repository with its host (ghcr.io/hanzoai/iam, preferred:
// it also names the registry to read digests from) or a bare GitHub
// owner/repo (hanzoai/iam, as in model.AppView.Repo).
type RepoTag struct {
	Repo string
	Tag  string
}

// subject is what one RepoTag resolves to: a GitHub repository to read
// releases from and/or an image repository to read digests from.
type subject struct {
	gitHub   string // owner/repo, "" when the image is not on a GitHub registry
	image    string // host/path for the registry, "" when the host is unknown
	noGitHub string // why there is no GitHub repo, when gitHub == ""
}

// resolve maps a board repo to its GitHub repository and image. Images on one
// of ghRegistries (ghcr.io by default) map to github.com/<owner>/<repo>; a bare
// owner/repo is taken as the GitHub repository itself, with no image.
func resolve(repo string, ghRegistries []string) subject {
	repo = strings.TrimSpace(repo)
	first, rest, hasSlash := strings.Cut(repo, "/")
	if !hasSlash {
		return subject{noGitHub: fmt.Sprintf("%q is not owner/repo", repo)}
	}
	if !strings.ContainsAny(first, ".:[") && first != "localhost" {
		gh, err := gitHubRepo(repo)
		if err != nil {
			return subject{noGitHub: err.Error()}
		}
		return subject{gitHub: gh}
	}
	host := strings.ToLower(first)
	s := subject{image: host + "/" + rest}
	for _, r := range ghRegistries {
		if strings.EqualFold(r, host) {
			gh, err := gitHubRepo(rest)
			if err != nil {
				s.noGitHub = err.Error()
			}
			s.gitHub = gh
			return s
		}
	}
	s.noGitHub = "image on " + host + ", not a GitHub registry: no release lookup"
	return s
}

// gitHubRepo returns owner/repo from the first two segments of path, checked
// against GitHub's name rules so nothing odd lands in a request path.
func gitHubRepo(path string) (string, error) {
	segs := strings.Split(path, "/")
	if len(segs) < 2 {
		return "", fmt.Errorf("%q is not owner/repo", path)
	}
	owner, name := segs[0], segs[1]
	if !validName(owner, false) || !validName(name, true) {
		return "", fmt.Errorf("%q is not a GitHub owner/repo", owner+"/"+name)
	}
	return strings.ToLower(owner) + "/" + strings.ToLower(name), nil
}

func validName(s string, repo bool) bool {
	if s == "" || len(s) > 100 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
		case repo && (c == '_' || c == '.'):
		default:
			return false
		}
	}
	return true
}
