package releasereader

import (
	"net/url"
	"regexp"
	"slices"

	"github.com/hanzoai/driftboard/model"
)

// A row carries its repo's newest releases, the tags a promotion may
// write. They come from the releases list the row's checks read anyway, so
// they cost no request. What GitHub said is not trusted: a tag that is no
// image tag is left out (it would be written into YAML and shown on the
// terminal), and a notes link is kept only on the configured GitHub's own
// web host.

// imageTag is the OCI distribution spec's tag grammar.
var imageTag = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

// rowReleasesLocked is repo's release list for a row: published releases,
// newest first, at most model.MaxRowReleases; nil before the list was read.
func (r *Reader) rowReleasesLocked(repo string) []model.ReleaseTag {
	if repo == "" {
		return nil
	}
	la, ok := r.answers[gitHubList(repo).key()]
	if !ok {
		return nil
	}
	rels := slices.Clone(la.Releases)
	slices.SortStableFunc(rels, func(a, b tagRelease) int { return b.Published.Compare(a.Published) })
	var out []model.ReleaseTag
	for _, t := range rels {
		if len(out) == model.MaxRowReleases {
			break
		}
		if !imageTag.MatchString(t.Tag) {
			continue
		}
		out = append(out, model.ReleaseTag{Tag: t.Tag, URL: r.notesURL(t.URL), Published: t.Published, Prerelease: t.Prerelease})
	}
	return out
}

// notesURL is u when it is a link on the configured GitHub's web host
// (github.com for api.github.com, else the Enterprise server itself) with
// the same scheme, else "".
func (r *Reader) notesURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User != nil || r.gh == nil {
		return ""
	}
	scheme, host := r.gh.BaseURL.Scheme, r.gh.BaseURL.Host
	if host == "api.github.com" {
		host = "github.com"
	}
	if p.Scheme != scheme || p.Host != host {
		return ""
	}
	return p.String()
}
