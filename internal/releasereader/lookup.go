package releasereader

import (
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// releaseLocked composes a row's release facts from the answers. The state is
// the declared tag's: a known answer stays (with a note when its refresh
// failed or is held back by a rate limit); without one the row says pending,
// rate-limited (Detail "until 14:05") or error (Detail why).
func (r *Reader) releaseLocked(p RepoTag, s subject, now time.Time) model.Release {
	var rel model.Release
	var notes []string
	until := "until " + r.blockedUntil.In(r.opts.Location).Format("15:04")
	blocked := now.Before(r.blockedUntil)
	rel.Since = s.since
	switch {
	case s.gitHub == "":
		rel.State = model.ReleaseNotLooked
		notes = append(notes, s.noGitHub)
	case p.Tag == "":
		rel.State = model.ReleaseNotLooked
		notes = append(notes, "no declared tag to look up")
	default:
		a, ok := r.tagAnswerLocked(s.gitHub, p.Tag)
		switch {
		case !ok && blocked:
			rel.State = model.ReleaseRateLimited
			notes = append(notes, until)
		case !ok:
			rel.State = model.ReleasePending
		case a.Result == resultError:
			rel.State, rel.Since = model.ReleaseError, a.ErrAt
			notes = append(notes, a.Err)
		default:
			rel.State, rel.URL, rel.Assets, rel.CheckedAt = model.ReleaseFound, a.URL, a.Assets, a.CheckedAt
			rel.Since = time.Time{}
			if a.Result == resultNone {
				rel.State = model.ReleaseNone
			}
			if a.Err != "" {
				notes = append(notes, "refresh failed: "+a.Err)
			}
			if blocked && now.Sub(a.CheckedAt) > r.opts.Interval {
				notes = append(notes, "refresh rate-limited "+until+", answer from "+a.CheckedAt.In(r.opts.Location).Format("15:04"))
			}
		}
	}
	rel.Releases = r.rowReleasesLocked(s.gitHub)
	notes = r.latestLocked(&rel, s, blocked, until, notes)
	notes = r.digestLocked(&rel, s, p.Tag, notes)
	rel.Detail = strings.Join(notes, "; ")
	return rel
}

// tagAnswerLocked is what GitHub said of repo's release for tag: from the
// repo's releases list when it holds the tag or holds every release, else
// from the tag's own request.
func (r *Reader) tagAnswerLocked(repo, tag string) (answer, bool) {
	la, ok := r.answers[gitHubList(repo).key()]
	if !ok || la.Result == resultError {
		return la, ok
	}
	a := answer{Result: resultNone, CheckedAt: la.CheckedAt, Err: la.Err, ErrAt: la.ErrAt}
	if la.Result == resultNone {
		return a, true // no such repo: no release for any tag
	}
	if rel, found := la.release(tag); found {
		a.Result, a.Tag, a.URL, a.Assets = resultFound, rel.Tag, rel.URL, rel.Assets
		return a, true
	}
	if la.Complete {
		return a, true
	}
	ta, ok := r.answers[gitHubTag(repo, tag).key()]
	return ta, ok
}

func (r *Reader) latestLocked(rel *model.Release, s subject, blocked bool, until string, notes []string) []string {
	var fromRegistry bool
	if s.gitHub != "" {
		la, ok := r.answers[gitHubList(s.gitHub).key()]
		switch {
		case ok && la.Result == resultFound && la.Tag != "":
			rel.LatestTag, rel.LatestPublished = la.Tag, la.Published
			return notes
		case ok && (la.Result == resultNone || la.Result == resultFound):
			fromRegistry = true
			if !r.opts.RegistryLatest || s.image == "" {
				if la.Result == resultNone {
					return append(notes, "GitHub has no repository "+s.gitHub+" (or it is private to this token)")
				}
				return append(notes, "repo has no published release")
			}
		case ok && (rel.State == model.ReleaseFound || rel.State == model.ReleaseNone):
			return append(notes, "latest release: "+la.Err)
		case rel.State == model.ReleaseFound || rel.State == model.ReleaseNone:
			if blocked {
				return append(notes, "latest release rate-limited "+until)
			}
			return append(notes, "latest release not read yet")
		default:
			return notes
		}
	}
	if !r.opts.RegistryLatest || s.image == "" {
		return notes
	}
	ra, ok := r.answers[registryLatest(s.image).key()]
	switch {
	case ok && ra.Result == resultFound:
		rel.LatestTag = ra.Tag
		if fromRegistry {
			return append(notes, "no GitHub release; latest tag from the registry")
		}
		return append(notes, "latest tag from the registry")
	case ok && ra.Result == resultNone:
		return append(notes, "no release and no vX.Y.Z tag in the registry")
	case ok:
		return append(notes, "latest tag: "+ra.Err)
	}
	return notes
}

func (r *Reader) digestLocked(rel *model.Release, s subject, tag string, notes []string) []string {
	if !r.opts.Registry || s.image == "" || tag == "" {
		return notes
	}
	d, ok := r.answers[registryDigest(s.image, tag).key()]
	switch {
	case !ok:
	case d.Result == resultFound:
		rel.TagDigest = d.Digest
		if d.Err != "" {
			rel.DigestNote = "refresh failed: " + d.Err
			notes = append(notes, "digest refresh failed: "+d.Err)
		}
	case d.Result == resultNone:
		rel.DigestNote = "registry: tag " + tag + " not found in " + s.image
		notes = append(notes, rel.DigestNote)
	default:
		rel.DigestNote = d.Err
		notes = append(notes, d.Err)
	}
	return notes
}
