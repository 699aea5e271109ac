package releasereader

import (
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Status is the reader's own state, for the board's status line.
type Status struct {
	Off              bool      `json:"off"`
	Warning          string    `json:"warning,omitempty"`     // e.g. anonymous, 60 requests/hour
	TokenSource      string    `json:"tokenSource,omitempty"` // where the token came from, never the token
	RateLimitedUntil time.Time `json:"rateLimitedUntil,omitzero"`
	RateLimitReason  string    `json:"rateLimitReason,omitempty"`
	Remaining        int       `json:"remaining"` // GitHub's X-RateLimit-Remaining, -1 before the first answer
	Limit            int       `json:"limit"`
	// RefreshEvery is how often GitHub answers are re-read: the configured
	// interval, or longer when the rate budget left cannot pay for it.
	RefreshEvery time.Duration `json:"refreshEvery"`
	Starved      bool          `json:"starved"`
	Sent         int64         `json:"sent"`        // HTTP requests sent to GitHub by this process
	NotModified  int64         `json:"notModified"` // of which answered 304 (free when authorized)
	CacheError   string        `json:"cacheError,omitempty"`
	// Failing, FailingChecks and NextTry: see model.ReleaseChecks.
	Failing       string    `json:"failing,omitempty"`
	FailingChecks int       `json:"failingChecks,omitempty"`
	NextTry       time.Time `json:"nextTry,omitzero"`
}

// Status reports the reader's state.
func (r *Reader) Status() Status {
	if r.off {
		return Status{Off: true}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Status{
		Warning: r.warning, TokenSource: r.tokenSource,
		Remaining: -1, Limit: r.rate.Limit,
		Sent: r.etags.sent.Load(), NotModified: r.etags.notModified.Load(),
		CacheError:   r.cacheErr,
		RefreshEvery: max(r.gitHubSpacing, r.opts.Interval),
		Starved:      r.gitHubSpacing > r.opts.Interval,
	}
	if r.rate.Limit > 0 {
		st.Remaining = r.rate.Remaining
	}
	if r.now().Before(r.blockedUntil) {
		st.RateLimitedUntil, st.RateLimitReason = r.blockedUntil, r.blockWhy
	}
	st.FailingChecks, st.Failing, st.NextTry = r.failingLocked(r.now())
	return st
}

func (r *Reader) cachePath() string {
	if r.opts.NoCache {
		return ""
	}
	if r.opts.CachePath != "" {
		return r.opts.CachePath
	}
	p, err := DefaultCachePath(r.opts.Getenv)
	if err != nil {
		r.cacheErr = err.Error()
		return ""
	}
	return p
}

func (r *Reader) loadCache() {
	path := r.cachePath()
	if path == "" {
		return
	}
	c, err := readCache(path, r.apiBase)
	if err != nil {
		r.cacheErr = err.Error()
	}
	r.answers = c.Answers
	r.etags.load(c.ETags)
}

// save writes the cache file when answers changed. Answers older than
// cacheMaxAge are dropped with their ETags.
func (r *Reader) save() {
	path := r.cachePath()
	r.mu.Lock()
	if path == "" || !r.dirty {
		r.mu.Unlock()
		return
	}
	now := r.now()
	c := cacheFile{Version: cacheVersion, APIBase: r.apiBase, SavedAt: now, Answers: map[string]answer{}}
	keep := map[string]bool{}
	for k, a := range r.answers {
		if a.Result == resultError || now.Sub(a.CheckedAt) > cacheMaxAge {
			continue
		}
		c.Answers[k] = a
		if a.Req != "" {
			keep[a.Req] = true
		}
	}
	r.dirty = false
	r.mu.Unlock()
	c.ETags = r.etags.snapshot(func(u string) bool { return keep[u] })
	err := writeCache(path, c)
	r.mu.Lock()
	if err != nil {
		r.cacheErr, r.dirty = err.Error(), true
	} else {
		r.cacheErr = ""
	}
	r.mu.Unlock()
}

// Checks is the reader's state as the board's header shows it: off,
// anonymous (60 requests/hour), or held back by GitHub until a time.
func (r *Reader) Checks() model.ReleaseChecks {
	st := r.Status()
	return model.ReleaseChecks{
		Off: st.Off, Anonymous: !st.Off && st.TokenSource == "",
		LimitedUntil: st.RateLimitedUntil, Remaining: st.Remaining, Limit: st.Limit,
		RefreshSeconds: int(st.RefreshEvery / time.Second), Starved: st.Starved,
		Failing: st.Failing, FailingChecks: st.FailingChecks, NextTry: st.NextTry,
	}
}
