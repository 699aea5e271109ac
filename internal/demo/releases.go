package demo

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
)

// registry is the simulated image registry: the digest behind each tag. A
// floating tag moves to a new digest on every push; pods keep the digest
// they pulled.
type registry struct {
	mu     sync.Mutex
	builds map[string]int // repo:tag → pushes after the first
}

func newRegistry() *registry { return &registry{builds: map[string]int{}} }

func (r *registry) digest(repo, tag string) string {
	r.mu.Lock()
	n := r.builds[repo+":"+tag]
	r.mu.Unlock()
	sum := sha256.Sum256(fmt.Appendf(nil, "%s:%s#%d", repo, tag, n))
	return fmt.Sprintf("sha256:%x", sum)
}

func (r *registry) push(repo, tag string) {
	r.mu.Lock()
	r.builds[repo+":"+tag]++
	r.mu.Unlock()
}

// Releases is the demo's release source (it implements kube.ReleaseSource):
// GitHub as the release reader would see it, without a network. Some repos
// show the reader's other states: not read yet, rate-limited until a reset
// (which comes back every few minutes), and failing.
type Releases struct {
	mu      sync.Mutex
	repos   map[string]*repoPlan
	plan    *plan
	reg     *registry
	now     func() time.Time
	changed chan struct{}

	started      time.Time // the reader began: pending repos wait since then
	limitedSince time.Time // the current rate limit struck then
	limitedUntil time.Time // rate-limited repos answer again then
	nextLimit    time.Time // the rate limit strikes again then
	pendingUntil time.Time // repos not read yet are read then
	cycle        time.Duration
	healthy      bool // Options.HealthyReleases: every repo read, with a token
}

// Demo release timeline, in simulated time.
const (
	rateLimitFor   = 4 * time.Minute
	rateLimitEvery = 10 * time.Minute
	pendingFor     = 4*time.Minute + 20*time.Second
)

func newReleases(p *plan, reg *registry, now func() time.Time, scale func(time.Duration) time.Duration, healthy bool) *Releases {
	t := now()
	return &Releases{healthy: healthy,
		repos: p.repos, plan: p, reg: reg, now: now, changed: make(chan struct{}, 1),
		started: t, limitedSince: t, limitedUntil: t.Add(scale(rateLimitFor)), nextLimit: t.Add(scale(rateLimitEvery)),
		pendingUntil: t.Add(scale(pendingFor)), cycle: scale(rateLimitEvery),
	}
}

// Changed signals (capacity 1, coalescing) that answers may differ.
func (rs *Releases) Changed() <-chan struct{} { return rs.changed }

func (rs *Releases) signal() {
	select {
	case rs.changed <- struct{}{}:
	default:
	}
}

// state is the reader's state for a repo at now; callers hold mu.
func (rs *Releases) state(r *repoPlan, now time.Time) model.ReleaseState {
	if rs.healthy {
		return model.ReleaseFound
	}
	switch r.state {
	case model.ReleasePending:
		if now.Before(rs.pendingUntil) {
			return model.ReleasePending
		}
	case model.ReleaseRateLimited:
		if now.Before(rs.limitedUntil) {
			return model.ReleaseRateLimited
		}
	case model.ReleaseError:
		return model.ReleaseError
	}
	return model.ReleaseFound
}

// Lookup answers for one repo (owner/repo) and declared tag.
func (rs *Releases) Lookup(repo, tag string) model.Release {
	if im, err := imageref.Parse(repo); err == nil && im.Repository != "" {
		repo = im.Repository // kube passes the full reference; GitHub knows owner/repo
	}
	now := rs.now()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.repos[repo]
	if r == nil {
		return model.Release{State: model.ReleaseNone, CheckedAt: now, Detail: "no GitHub repository " + repo}
	}
	switch rs.state(r, now) {
	case model.ReleasePending:
		return model.Release{State: model.ReleasePending, Since: rs.started, Detail: "queued behind the rate limit; not read yet"}
	case model.ReleaseRateLimited:
		return model.Release{State: model.ReleaseRateLimited, Since: rs.limitedSince,
			Detail: "until " + rs.limitedUntil.Local().Format("15:04:05") + " (60 requests/hour without a token)"}
	case model.ReleaseError:
		return model.Release{State: model.ReleaseError, CheckedAt: now, Since: rs.started,
			Detail: fmt.Sprintf("GET https://api.github.com/repos/%s/releases/latest: 502 Bad Gateway", repo)}
	}
	rel := model.Release{State: model.ReleaseNone, LatestTag: r.latest(), CheckedAt: now}
	if !rs.plan.unpullable(repo, tag) && tag != "" {
		rel.TagDigest = rs.reg.digest(repo, tag)
	}
	if n, ok := r.assets[tag]; ok {
		rel.State, rel.Assets = model.ReleaseFound, n
		rel.URL = fmt.Sprintf("https://github.com/%s/releases/tag/%s", repo, tag)
	}
	return rel
}

// Checks is the demo reader's own state for the header: anonymous, held
// back while the simulated rate limit lasts, and failing for the repos
// GitHub answers 502 (tried again each minute); a healthy reader has a
// token and nothing to say.
func (rs *Releases) Checks() model.ReleaseChecks {
	if rs.healthy {
		return model.ReleaseChecks{Remaining: 4990, Limit: 5000, RefreshSeconds: 600}
	}
	now := rs.now()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rc := model.ReleaseChecks{Anonymous: true, LimitedUntil: rs.limitedUntil, Remaining: -1, Limit: 60}
	for _, name := range rs.plan.repoNames {
		if r := rs.repos[name]; r != nil && rs.state(r, now) == model.ReleaseError {
			rc.FailingChecks++
			rc.Failing = "GitHub answered 502: Bad Gateway"
		}
	}
	if rc.FailingChecks > 0 {
		tries := now.Sub(rs.started)/time.Minute + 1
		rc.NextTry = rs.started.Add(tries * time.Minute)
	}
	return rc
}

// publish records a new release of repo and returns its tag.
func (rs *Releases) publish(repo string, minor bool, assets int) string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.repos[repo]
	tag := bump(r.latest())
	if minor {
		var a, b, c int
		if _, err := fmt.Sscanf(r.latest(), "v%d.%d.%d", &a, &b, &c); err == nil {
			tag = fmt.Sprintf("v%d.%d.0", a, b+1)
		}
	}
	if tag == r.unreleased {
		r.unreleased = ""
	}
	r.versions = append(r.versions, tag)
	r.assets[tag] = assets
	rs.signal()
	return tag
}

// latest returns a repo's latest release and whether the reader can see it.
func (rs *Releases) latest(repo string) (string, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.repos[repo]
	if r == nil {
		return "", false
	}
	return r.latest(), rs.state(r, rs.now()) == model.ReleaseFound
}

// tick moves the reader's timeline: the rate limit lifts and strikes again,
// queued repos get read.
func (rs *Releases) tick(now time.Time) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	moved := false
	if !rs.pendingUntil.IsZero() && !now.Before(rs.pendingUntil) {
		rs.pendingUntil, moved = time.Time{}, true // read: pending repos resolve for good
	}
	if !rs.limitedUntil.IsZero() && !now.Before(rs.limitedUntil) {
		rs.limitedUntil, moved = time.Time{}, true
	}
	if !now.Before(rs.nextLimit) {
		rs.limitedSince, rs.limitedUntil = now, now.Add(rs.cycle*4/10)
		rs.nextLimit = now.Add(rs.cycle)
		moved = true
	}
	if moved {
		rs.signal()
	}
}
