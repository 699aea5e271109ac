package releasereader

import "time"

// Results of one check.
const (
	resultFound = "found"
	resultNone  = "none"
	resultError = "error"
)

// answer is what one check last said. A failed refresh of a known answer
// keeps the answer and records Err, so the row keeps its facts and says the
// refresh failed; Result is "error" only when nothing was ever learned.
type answer struct {
	Result string `json:"result"`
	Tag    string `json:"tag,omitempty"` // latest release's tag, or the registry's highest semver tag
	URL    string `json:"url,omitempty"` // release html_url
	Assets int    `json:"assets,omitempty"`
	// Published is when the latest release (Tag) was published.
	Published time.Time `json:"published,omitzero"`
	// Releases are a releases list's published releases (drafts left out);
	// Complete says the list had every release of the repo (one short page),
	// so a tag missing from it has no release without asking again.
	Releases  []tagRelease `json:"releases,omitempty"`
	Complete  bool         `json:"complete,omitempty"`
	Digest    string       `json:"digest,omitempty"` // registry digest behind a tag
	Req       string       `json:"req,omitempty"`    // request URL, whose ETag the cache keeps
	CheckedAt time.Time    `json:"checkedAt"`
	Err       string       `json:"err,omitempty"`
	ErrAt     time.Time    `json:"errAt,omitzero"`
}

// tagRelease is one release of a releases list, as much as a row needs.
type tagRelease struct {
	Tag        string    `json:"tag"`
	URL        string    `json:"url,omitempty"`
	Assets     int       `json:"assets,omitempty"`
	Published  time.Time `json:"published,omitzero"`
	Prerelease bool      `json:"prerelease,omitempty"`
}

// release finds tag among a releases list's answers.
func (a answer) release(tag string) (tagRelease, bool) {
	for _, r := range a.Releases {
		if r.Tag == tag {
			return r, true
		}
	}
	return tagRelease{}, false
}

// Kinds of checks. A repo costs one releases-list request per refresh; a
// declared tag costs its own request only when the list is one full page
// without it (an older release, or none).
const (
	kindGitHubList     = "gh-list"
	kindGitHubTag      = "gh-tag"
	kindRegistryDigest = "reg-digest"
	kindRegistryLatest = "reg-latest"
)

// target is one check: a GitHub release read or a registry read.
type target struct {
	kind   string
	gitHub string // owner/repo
	image  string // host/path
	tag    string
}

func (t target) key() string {
	switch t.kind {
	case kindGitHubList:
		return t.kind + " " + t.gitHub
	case kindGitHubTag:
		return t.kind + " " + t.gitHub + " " + t.tag
	case kindRegistryDigest:
		return t.kind + " " + t.image + " " + t.tag
	default:
		return t.kind + " " + t.image
	}
}

func (t target) isGitHub() bool { return t.kind == kindGitHubList || t.kind == kindGitHubTag }

func gitHubList(repo string) target     { return target{kind: kindGitHubList, gitHub: repo} }
func gitHubTag(repo, tag string) target { return target{kind: kindGitHubTag, gitHub: repo, tag: tag} }
func registryDigest(im, tag string) target {
	return target{kind: kindRegistryDigest, image: im, tag: tag}
}
func registryLatest(im string) target { return target{kind: kindRegistryLatest, image: im} }
