package releasereader

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/ghtoken"
)

// secondaryWait is how long to stay away after a secondary rate limit that
// names no Retry-After: GitHub asks for at least a minute, growing on repeats.
const (
	secondaryWait    = time.Minute
	secondaryMaxWait = 30 * time.Minute
)

// newGitHubClient builds the go-github client over the ETag transport.
// go-github's own rate-limit bookkeeping runs on the wall clock; the reader
// keeps its own on the injected clock, so that one is switched off.
// The token is bound to the API's scheme and host (ghtoken.Bind), not set with
// go-github's WithAuthToken, which would put it on redirects to any host.
func newGitHubClient(httpClient *http.Client, baseURL, token string) (*github.Client, error) {
	c := github.NewClient(httpClient)
	if baseURL != "" {
		var err error
		if c, err = c.WithEnterpriseURLs(baseURL, baseURL); err != nil {
			return nil, fmt.Errorf("GitHub Enterprise URL %q: %w", baseURL, err)
		}
	}
	if token != "" {
		bound := *httpClient
		bound.Transport = ghtoken.Bind(baseTransport(httpClient), token, c.BaseURL)
		c2 := github.NewClient(&bound)
		c2.BaseURL, c2.UploadURL = c.BaseURL, c.UploadURL
		c = c2
	}
	c.UserAgent = "driftboard"
	c.DisableRateLimitCheck = true
	return c, nil
}

// listPerPage is the releases page size, GitHub's maximum: one request sees
// a repo's latest release and its last 100 releases' URLs and assets.
const listPerPage = 100

// fetchGitHub performs one GitHub check: a repo's releases list, or one tag's
// release when the list did not reach back to it. limited is true when
// GitHub refused for rate reasons: then no answer is stored and requests stop
// until the block the reader has recorded ends.
func (r *Reader) fetchGitHub(ctx context.Context, t target) (a answer, limited bool) {
	owner, repo, _ := strings.Cut(t.gitHub, "/")
	var (
		rels []*github.RepositoryRelease
		rel  *github.RepositoryRelease
		resp *github.Response
		err  error
	)
	if t.kind == kindGitHubList {
		rels, resp, err = r.gh.Repositories.ListReleases(ctx, owner, repo, &github.ListOptions{PerPage: listPerPage})
	} else {
		rel, resp, err = r.gh.Repositories.GetReleaseByTag(ctx, owner, repo, url.PathEscape(t.tag))
	}
	now := r.now()
	if resp != nil {
		r.noteRate(resp.Rate, now)
		if resp.Request != nil {
			a.Req = resp.Request.URL.String()
		}
	}
	a.CheckedAt = now
	switch {
	case err == nil && t.kind == kindGitHubList:
		r.clearSecondary()
		listAnswer(&a, rels)
		return a, false
	case err == nil && rel.GetDraft(): // a draft is not a published release
		r.clearSecondary()
		a.Result = resultNone
		return a, false
	case err == nil:
		r.clearSecondary()
		a.Result, a.Tag, a.URL, a.Assets = resultFound, rel.GetTagName(), rel.GetHTMLURL(), len(rel.Assets)
		return a, false
	}
	return r.failedGitHub(ctx, a, err, now)
}

// listAnswer reads a releases list: the published releases, and the latest
// as GitHub's /releases/latest picks it (newest created_at among those
// neither draft nor prerelease).
func listAnswer(a *answer, rels []*github.RepositoryRelease) {
	a.Result, a.Complete = resultFound, len(rels) < listPerPage
	var latest *github.RepositoryRelease
	for _, rel := range rels {
		if rel.GetDraft() || rel.GetTagName() == "" {
			continue
		}
		a.Releases = append(a.Releases, tagRelease{Tag: rel.GetTagName(), URL: rel.GetHTMLURL(), Assets: len(rel.Assets),
			Published: rel.GetPublishedAt().Time, Prerelease: rel.GetPrerelease()})
		if rel.GetPrerelease() {
			continue
		}
		if latest == nil || rel.GetCreatedAt().After(latest.GetCreatedAt().Time) {
			latest = rel
		}
	}
	if latest != nil {
		a.Tag, a.Published = latest.GetTagName(), latest.GetPublishedAt().Time
	}
}

// failedGitHub turns a refused or failed request into an answer: a 404 is
// "none" (no such repo, or no release for the tag), a rate limit blocks.
func (r *Reader) failedGitHub(ctx context.Context, a answer, err error, now time.Time) (answer, bool) {
	var (
		primary   *github.RateLimitError
		secondary *github.AbuseRateLimitError
		apiErr    *github.ErrorResponse
	)
	switch {
	case errors.As(err, &primary):
		until := primary.Rate.Reset.Time
		if !until.After(now) {
			until = now.Add(secondaryWait)
		}
		r.block(until, "primary rate limit")
		return a, true
	case errors.As(err, &secondary):
		r.blockSecondary(now, secondary.Response)
		return a, true
	case errors.As(err, &apiErr) && apiErr.Response != nil && apiErr.Response.StatusCode == http.StatusNotFound:
		r.clearSecondary()
		a.Result = resultNone
		return a, false
	case errors.As(err, &apiErr) && apiErr.Response != nil:
		a.Result, a.Err = resultError, fmt.Sprintf("GitHub answered %d: %s", apiErr.Response.StatusCode, apiErr.Message)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		a.Result, a.Err = resultError, "GitHub did not answer in time"
	default:
		var ue *url.Error
		if errors.As(err, &ue) { // the request's method and URL say nothing a reader needs
			err = ue.Err
		}
		a.Result, a.Err = resultError, "GitHub: "+err.Error()
	}
	a.ErrAt = now
	return a, false
}

// noteRate records the rate-limit headers of any answer, 304s included, and
// stops requests at the point GitHub would start refusing them.
func (r *Reader) noteRate(rate github.Rate, now time.Time) {
	if rate.Limit == 0 {
		return // no headers (Enterprise with rate limits off)
	}
	r.mu.Lock()
	// Answers in flight together arrive in any order: within one window the
	// lowest Remaining is the truth.
	if !rate.Reset.Equal(r.rate.Reset) || rate.Remaining < r.rate.Remaining {
		r.rate = rate
	}
	r.mu.Unlock()
	if rate.Remaining == 0 && rate.Reset.After(now) {
		r.block(rate.Reset.Time, "primary rate limit")
	}
}

func (r *Reader) block(until time.Time, why string) {
	r.mu.Lock()
	if until.After(r.blockedUntil) {
		r.blockedUntil, r.blockWhy = until, why
	}
	r.mu.Unlock()
	r.notify()
}

// blockSecondary waits as GitHub documents for secondary limits: Retry-After
// seconds if given; else until X-RateLimit-Reset if Remaining is 0; else at
// least a minute, doubling on repeats. The headers are read here rather than
// from go-github's RetryAfter, which it measures on the wall clock.
func (r *Reader) blockSecondary(now time.Time, resp *http.Response) {
	until, named := now, false
	if resp != nil {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			until, named = now.Add(time.Duration(s)*time.Second), true // GitHub's word wins, however long
		} else if resp.Header.Get(github.HeaderRateRemaining) == "0" {
			if reset, err := strconv.ParseInt(resp.Header.Get(github.HeaderRateReset), 10, 64); err == nil && time.Unix(reset, 0).After(now) {
				until, named = time.Unix(reset, 0), true
			}
		}
	}
	// The hit is counted and the block set under one lock: answers in flight
	// together all find the block their first one set, and are one hit.
	r.mu.Lock()
	if !now.Before(r.blockedUntil) || r.secondaryHits == 0 {
		r.secondaryHits++
	}
	if !named {
		until = now.Add(min(secondaryWait<<min(r.secondaryHits-1, 5), secondaryMaxWait))
	}
	if until.After(r.blockedUntil) {
		r.blockedUntil, r.blockWhy = until, "secondary rate limit"
	}
	r.mu.Unlock()
	r.notify()
}

func (r *Reader) clearSecondary() {
	r.mu.Lock()
	r.secondaryHits = 0
	r.mu.Unlock()
}

// gitHubBlocked reports whether GitHub asked us to wait, and until when.
func (r *Reader) gitHubBlocked(now time.Time) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.blockedUntil, now.Before(r.blockedUntil)
}
