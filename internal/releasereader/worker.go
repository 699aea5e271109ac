package releasereader

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// Run refreshes answers until ctx ends: checks that are due (never read, or
// older than the interval) go out at most Concurrency at a time; GitHub
// checks wait while GitHub asked us to. It sleeps until the next answer gets
// old, the block ends, or Track/Lookup bring new pairs.
func (r *Reader) Run(ctx context.Context) {
	if r.off {
		return
	}
	defer r.save()
	for {
		next := r.refresh(ctx)
		wait := r.opts.Interval
		if !next.IsZero() {
			wait = max(next.Sub(r.now()), time.Second) // never spin
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-r.opts.After(wait):
		}
	}
}

// refresh runs the due checks and returns when the next one falls due (zero
// when nothing is tracked). A second pass asks for the declared tags that the
// first pass's releases lists did not reach back to.
func (r *Reader) refresh(ctx context.Context) time.Time {
	tried, askedGitHub := map[string]bool{}, false
	for range 2 {
		jobs, _ := r.plan(r.now(), false)
		jobs = slices.DeleteFunc(jobs, func(t target) bool { return tried[t.key()] })
		if len(jobs) == 0 {
			break
		}
		for _, t := range jobs {
			tried[t.key()] = true
			askedGitHub = askedGitHub || t.isGitHub()
		}
		r.pass(ctx, jobs)
	}
	r.save()
	_, next := r.plan(r.now(), askedGitHub)
	return next
}

// pass runs jobs, at most Concurrency at a time, none to GitHub while it
// asked us to wait.
func (r *Reader) pass(ctx context.Context, jobs []target) {
	sem := make(chan struct{}, r.opts.Concurrency)
	var wg sync.WaitGroup
	for _, t := range jobs {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		if _, blocked := r.gitHubBlocked(r.now()); blocked && t.isGitHub() {
			<-sem // never hammer: not one more request until the block ends
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r.check(ctx, t)
		}()
	}
	wg.Wait()
}

// checkTimeout bounds one check, so a hung connection cannot stall a pass.
const checkTimeout = 30 * time.Second

func (r *Reader) check(parent context.Context, t target) {
	ctx, cancel := context.WithTimeout(parent, checkTimeout)
	defer cancel()
	var a answer
	switch t.kind {
	case kindGitHubList, kindGitHubTag:
		var limited bool
		if a, limited = r.fetchGitHub(ctx, t); limited {
			return
		}
	case kindRegistryDigest:
		a = r.fetchDigest(ctx, t)
	default:
		a = r.fetchRegistryLatest(ctx, t)
	}
	if parent.Err() != nil {
		return // shutting down: not an answer
	}
	r.mu.Lock()
	prev, known := r.answers[t.key()]
	if a.Result == resultError && known && prev.Result != resultError {
		prev.Err, prev.ErrAt = a.Err, a.ErrAt
		a = prev
	}
	r.answers[t.key()] = a
	r.dirty = true
	r.mu.Unlock()
	r.notify()
}

// plan lists the due checks, never-read first, then oldest first, and the
// time the next check falls due. afterPass says GitHub was just asked, so
// the spacing its rate budget allows is measured again.
func (r *Reader) plan(now time.Time, afterPass bool) ([]target, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	type job struct {
		t   target
		due time.Time
	}
	seen := map[string]bool{}
	var all []target
	gitHubChecks := 0
	for p, s := range r.wanted {
		for _, t := range r.targetsLocked(p, s) {
			if k := t.key(); !seen[k] {
				seen[k] = true
				all = append(all, t)
				if t.isGitHub() {
					gitHubChecks++
				}
			}
		}
	}
	r.updateSpacingLocked(now, gitHubChecks, afterPass)
	var due []job
	var next time.Time
	blocked := now.Before(r.blockedUntil)
	for _, t := range all {
		interval := r.opts.Interval
		if t.isGitHub() {
			interval = r.gitHubSpacing
		}
		at := r.dueAtLocked(t.key(), interval)
		if t.isGitHub() && blocked && at.Before(r.blockedUntil) {
			at = r.blockedUntil
		}
		if !at.After(now) {
			due = append(due, job{t, at})
		} else if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	slices.SortFunc(due, func(a, b job) int {
		if c := a.due.Compare(b.due); c != 0 {
			return c
		}
		return strings.Compare(a.t.key(), b.t.key())
	})
	out := make([]target, len(due))
	for i, j := range due {
		out[i] = j.t
	}
	if len(out) > 0 {
		next = now
	}
	return out, next
}

// dueAtLocked is when a check should run: at once (zero time) when never
// read, errorRetry after a failure, an interval after a good answer.
func (r *Reader) dueAtLocked(key string, interval time.Duration) time.Time {
	a, ok := r.answers[key]
	switch {
	case !ok:
		return time.Time{}
	case a.Err != "":
		return a.ErrAt.Add(min(errorRetry, interval))
	default:
		return a.CheckedAt.Add(interval)
	}
}

// targetsLocked lists the checks one pair needs.
func (r *Reader) targetsLocked(p RepoTag, s subject) []target {
	var ts []target
	if s.gitHub != "" {
		ts = append(ts, gitHubList(s.gitHub))
		if p.Tag != "" && r.needsTagCallLocked(s.gitHub, p.Tag) {
			ts = append(ts, gitHubTag(s.gitHub, p.Tag))
		}
	}
	if r.opts.Registry && s.image != "" {
		if p.Tag != "" {
			ts = append(ts, registryDigest(s.image, p.Tag))
		}
		if r.opts.RegistryLatest && (s.gitHub == "" || r.noLatestLocked(s.gitHub)) {
			ts = append(ts, registryLatest(s.image))
		}
	}
	return ts
}

// needsTagCallLocked: a declared tag gets its own request only when the
// repo's releases list was read, is one full page, and does not hold it.
func (r *Reader) needsTagCallLocked(repo, tag string) bool {
	la, ok := r.answers[gitHubList(repo).key()]
	if !ok || la.Result != resultFound || la.Complete {
		return false
	}
	_, listed := la.release(tag)
	return !listed
}

// noLatestLocked: GitHub said the repo has no published release (or no repo).
func (r *Reader) noLatestLocked(repo string) bool {
	la, ok := r.answers[gitHubList(repo).key()]
	return ok && (la.Result == resultNone || la.Result == resultFound && la.Tag == "")
}
