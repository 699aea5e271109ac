package releasereader

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// RepoTag is one (repository, declared tag) pair on the board. Repo is either
// the row's image repository with its host (ghcr.io/hanzoai/iam, preferred:
// it also names the registry to read digests from) or a bare owner/repo
// (hanzoai/iam, as in model.AppView.Repo).
type RepoTag struct {
	Repo string
	Tag  string
}

// RepoMapping maps image paths to GitHub repositories. Image is a pattern
// over host/path whose segments are matched with path.Match (a * stays
// within one segment) against the image's first segments; GitHub is the
// owner/repo, where * stands for what the pattern's last starred segment
// matched. An empty GitHub means "no GitHub repository": not looked up.
type RepoMapping struct {
	Image  string
	GitHub string
}

// DefaultRepoMappings are the platform's: the fleet registry's hanzo/<app>
// is github.com/hanzoai/<app>; tenant images have no repository of their own.
// Any other image maps by its path: <host>/<owner>/<repo>/… → owner/repo.
var DefaultRepoMappings = []RepoMapping{
	{Image: "oci.hanzo.ai/hanzo/*", GitHub: "hanzoai/*"},
	{Image: "ghcr.io/hanzoai/tenant-*", GitHub: ""},
}

// subject is what one RepoTag resolves to: a GitHub repository to read
// releases from and/or an image repository to read digests from.
type subject struct {
	gitHub   string    // owner/repo, "" when nothing maps to GitHub
	image    string    // host/path for the registry, "" when the host is unknown
	noGitHub string    // why there is no GitHub repo, when gitHub == ""
	since    time.Time // when the board first asked for this pair
}

// resolve maps a board repo to its GitHub repository and image: the first
// mapping whose pattern matches, else owner/repo from the image path on any
// registry (docker.io/x/y and x/y alike). A bare owner/repo has no image.
func resolve(repo string, maps []RepoMapping) subject {
	repo = strings.TrimSpace(repo)
	first, rest, hasSlash := strings.Cut(repo, "/")
	if !hasSlash {
		return subject{noGitHub: fmt.Sprintf("\"%s\" is not owner/repo: no release lookup", repo)}
	}
	var s subject
	ref, p := repo, repo
	if strings.ContainsAny(first, ".:[") || first == "localhost" {
		ref = strings.ToLower(first) + "/" + rest
		s.image, p = ref, rest
	}
	for _, m := range maps {
		target, ok := mapRepo(m, ref)
		if !ok {
			continue
		}
		if target == "" {
			s.noGitHub = "no GitHub repository maps to " + ref + " (releases.repos): not looked up"
			return s
		}
		p = target
		break
	}
	gh, err := gitHubRepo(p)
	if err != nil {
		s.noGitHub = err.Error() + ": no release lookup"
	}
	s.gitHub = gh
	return s
}

// mapRepo applies one mapping to ref (host/path or bare path).
func mapRepo(m RepoMapping, ref string) (string, bool) {
	pat := strings.Split(m.Image, "/")
	segs := strings.Split(ref, "/")
	if len(segs) < len(pat) {
		return "", false
	}
	star := ""
	for i, ps := range pat {
		ok, err := path.Match(strings.ToLower(ps), strings.ToLower(segs[i]))
		if err != nil || !ok {
			return "", false
		}
		if strings.Contains(ps, "*") {
			star = segs[i]
		}
	}
	return strings.ReplaceAll(m.GitHub, "*", star), true
}

// gitHubRepo returns owner/repo from the first two segments of path, checked
// against GitHub's name rules so nothing odd lands in a request path.
func gitHubRepo(path string) (string, error) {
	segs := strings.Split(path, "/")
	if len(segs) < 2 {
		return "", fmt.Errorf("\"%s\" is not owner/repo", path)
	}
	owner, name := segs[0], segs[1]
	if !validName(owner, false) || !validName(name, true) {
		return "", fmt.Errorf("\"%s\" is not a GitHub owner/repo", owner+"/"+name)
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
