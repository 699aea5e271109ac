package release

import (
	"context"
	"net/url"
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

// refresh runs one pass over the due checks and returns when the next one
// falls due (zero when nothing is tracked).
func (r *Reader) refresh(ctx context.Context) time.Time {
	jobs, _ := r.plan(r.now())
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
	r.save()
	_, next := r.plan(r.now())
	return next
}

// checkTimeout bounds one check, so a hung connection cannot stall a pass.
const checkTimeout = 30 * time.Second

func (r *Reader) check(parent context.Context, t target) {
	ctx, cancel := context.WithTimeout(parent, checkTimeout)
	defer cancel()
	var a answer
	switch t.kind {
	case kindGitHubLatest, kindGitHubTag:
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
// time the next check falls due.
func (r *Reader) plan(now time.Time) ([]target, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	type job struct {
		t   target
		due time.Time
	}
	seen := map[string]bool{}
	var due []job
	var next time.Time
	blocked := now.Before(r.blockedUntil)
	for p, s := range r.wanted {
		for _, t := range r.targetsLocked(p, s) {
			k := t.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			at := r.dueAtLocked(k)
			if t.isGitHub() && blocked && at.Before(r.blockedUntil) {
				at = r.blockedUntil
			}
			if !at.After(now) {
				due = append(due, job{t, at})
			} else if next.IsZero() || at.Before(next) {
				next = at
			}
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
func (r *Reader) dueAtLocked(key string) time.Time {
	a, ok := r.answers[key]
	switch {
	case !ok:
		return time.Time{}
	case a.Err != "":
		return a.ErrAt.Add(min(errorRetry, r.opts.Interval))
	default:
		return a.CheckedAt.Add(r.opts.Interval)
	}
}

// targetsLocked lists the checks one pair needs.
func (r *Reader) targetsLocked(p RepoTag, s subject) []target {
	var ts []target
	if s.gitHub != "" {
		ts = append(ts, gitHubLatest(s.gitHub))
		if p.Tag != "" {
			ts = append(ts, gitHubTag(s.gitHub, p.Tag))
		}
	}
	if r.opts.Registry && s.image != "" {
		if p.Tag != "" {
			ts = append(ts, registryDigest(s.image, p.Tag))
		}
		if r.opts.RegistryLatest && (s.gitHub == "" || r.answers[gitHubLatest(s.gitHub).key()].Result == resultNone) {
			ts = append(ts, registryLatest(s.image))
		}
	}
	return ts
}

// gitHubHost is the host whose token to use for an API base URL.
func gitHubHost(base string) string {
	if base == "" {
		return "github.com"
	}
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" || u.Hostname() == "api.github.com" {
		return "github.com"
	}
	return strings.TrimPrefix(u.Hostname(), "api.")
}
