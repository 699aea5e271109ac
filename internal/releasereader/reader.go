// Package releasereader reads release truth for the board: the latest GitHub
// release of each repo and the release behind each declared tag (via
// go-github, conditional requests, a concurrency limit, honest rate-limit
// handling) and the digest behind each declared tag from the image registry
// (via go-containerregistry). Answers and ETags survive restarts in a small
// cache file. Reader implements kube.ReleaseSource without importing kube.
package releasereader

import (
	"net/http"
	"sync"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/ghtoken"
	"github.com/hanzoai/driftboard/model"
)

// AnonymousWarning is shown when no GitHub token was found.
const AnonymousWarning = "GitHub: no token, anonymous (60 requests/hour): set GH_TOKEN or run gh auth login"

// Options configure a Reader. The zero value reads github.com with the token
// ghtoken.Resolve finds, every 10 minutes, caching in DefaultCachePath.
type Options struct {
	Interval    time.Duration // how old an answer may get before it is re-checked; default 10m
	Concurrency int           // requests in flight at once; default 4

	// Token for GitHub; "" means ghtoken.Resolve (env, then gh's hosts.yml,
	// then TokenStore). Anonymous (set NoToken) allows 60 requests/hour and
	// Status says so.
	Token   string
	NoToken bool
	// TokenStore is the last place a token is looked for: ghtoken.GHStore (gh's
	// config and the system keyring) unless set.
	TokenStore func(host string) (token, source string)
	// GitHubURL is a GitHub Enterprise base URL (https://ghe.example.com/);
	// "" is api.github.com.
	GitHubURL string
	// Repos map image paths to GitHub repositories, tried in order before
	// DefaultRepoMappings; without a match an image's <owner>/<repo> path
	// is the repository, on any registry.
	Repos []RepoMapping

	// Registry turns on digest reads (the digest behind each declared tag).
	Registry bool
	// RegistryLatest uses the registry's highest vX.Y.Z tag as the latest tag
	// for repos with no GitHub release (or not on GitHub). Needs Registry.
	RegistryLatest bool
	// InsecureRegistries are hosts read over plain HTTP, which is allowed
	// only to loopback addresses (a local test registry).
	InsecureRegistries []string
	// PrivateRegistries are hosts that may be on loopback, private or
	// link-local addresses; any other registry host an App names must be
	// public and is read over https (metadata addresses never).
	PrivateRegistries []string
	Keychain          authn.Keychain // default authn.DefaultKeychain (docker config)

	// CachePath is the cache file; "" means DefaultCachePath, NoCache none.
	CachePath string
	NoCache   bool

	HTTPClient *http.Client                         // base client (its Transport is used); default one with a 30s timeout
	Now        func() time.Time                     // default time.Now
	After      func(time.Duration) <-chan time.Time // default time.After
	Location   *time.Location                       // for "until 14:05"; default time.Local
	Getenv     func(string) string                  // default os.Getenv
}

// offDetail matches what kube says when it has no release source at all.
const offDetail = "release checks are off"

// errorRetry is how soon a failed check is tried again.
const errorRetry = time.Minute

// Reader is the release source. Lookup and Changed are safe from any
// goroutine; Run does the network work.
type Reader struct {
	off      bool
	opts     Options
	gh       *github.Client
	apiBase  string
	etags    *etagTransport
	keychain authn.Keychain

	regTransport http.RoundTripper
	warning      string
	tokenSource  string

	mu            sync.Mutex
	wanted        map[RepoTag]subject
	answers       map[string]answer
	blockedUntil  time.Time
	blockWhy      string
	secondaryHits int
	rate          github.Rate
	// gitHubSpacing is the age at which GitHub answers are re-read, as the
	// rate budget left allows (budget.go).
	gitHubSpacing time.Duration
	dirty         bool
	cacheErr      string

	changed chan struct{}
	wake    chan struct{}
}

// Off is the reader for --releases=off: every row says release checks are
// switched off, and nothing is ever requested.
func Off() *Reader {
	return &Reader{off: true, changed: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
}

// New builds a Reader and loads its cache file, so Lookup answers from the
// last run at once. A damaged cache file is not fatal; Status reports it.
func New(opts Options) (*Reader, error) {
	opts = withDefaults(opts)
	r := &Reader{
		opts:     opts,
		keychain: keychainOrDefault(opts.Keychain),
		regTransport: newGuardedTransport(baseTransport(opts.HTTPClient),
			egressPolicy{private: opts.PrivateRegistries, insecure: opts.InsecureRegistries}),
		wanted:  map[RepoTag]subject{},
		answers: map[string]answer{},
		changed: make(chan struct{}, 1),
		wake:    make(chan struct{}, 1),
	}
	token, host := opts.Token, ghtoken.Host(opts.GitHubURL)
	if token == "" && !opts.NoToken {
		token, r.tokenSource = ghtoken.Resolve(host, opts.Getenv, opts.TokenStore)
	} else if token != "" {
		r.tokenSource = "option"
	}
	if token != "" && !ghtoken.SafeURL(opts.GitHubURL) {
		token, r.tokenSource = "", "" // never a token in clear text off this machine
		r.warning = "GitHub URL " + opts.GitHubURL + " is not https: token not sent; " + AnonymousWarning
	}
	if token == "" && r.warning == "" {
		r.warning = AnonymousWarning
	}
	r.etags = newETagTransport(baseTransport(opts.HTTPClient), shrinkRelease) // GitHub: a configured host
	httpClient := &http.Client{Transport: r.etags, Timeout: opts.HTTPClient.Timeout}
	gh, err := newGitHubClient(httpClient, opts.GitHubURL, token)
	if err != nil {
		return nil, err
	}
	r.gh, r.apiBase = gh, gh.BaseURL.String()
	r.loadCache()
	return r, nil
}

func withDefaults(o Options) Options {
	if o.Interval <= 0 {
		o.Interval = 10 * time.Minute
	}
	if !o.Registry {
		o.RegistryLatest = false // the registry's tags need registry reads
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.TokenStore == nil {
		o.TokenStore = ghtoken.GHStore
	}
	o.Repos = append(append([]RepoMapping(nil), o.Repos...), DefaultRepoMappings...)
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	return o
}

func baseTransport(c *http.Client) http.RoundTripper {
	if c != nil && c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}

func (r *Reader) now() time.Time { return r.opts.Now() }

// Changed delivers a tick (capacity 1, coalescing) whenever an answer or the
// rate-limit state changed, so the board rebuilds its rows.
func (r *Reader) Changed() <-chan struct{} { return r.changed }

func (r *Reader) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

func (r *Reader) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Track tells the reader which (repo, declared tag) pairs the board shows
// now; pairs no longer shown are no longer refreshed. Cheap and idempotent:
// call it after every snapshot. New pairs wake the worker.
func (r *Reader) Track(pairs []RepoTag) {
	if r.off {
		return
	}
	r.mu.Lock()
	next := make(map[RepoTag]subject, len(pairs))
	added := false
	for _, p := range pairs {
		s, ok := r.wanted[p]
		if !ok {
			s, added = resolve(p.Repo, r.opts.Repos), true
			s.since = r.now()
		}
		next[p] = s
	}
	r.wanted = next
	r.mu.Unlock()
	if added {
		r.poke()
	}
}

// Lookup returns what is known of repo at tag, from memory; it never waits on
// the network. A pair not seen before is tracked from now on, and wakes the
// worker when it needs a check nobody asked for yet.
func (r *Reader) Lookup(repo, tag string) model.Release {
	if r.off {
		return model.Release{State: model.ReleaseOff, Detail: offDetail}
	}
	p := RepoTag{Repo: repo, Tag: tag}
	r.mu.Lock()
	s, known := r.wanted[p]
	wake := false
	if !known {
		s = resolve(repo, r.opts.Repos)
		s.since = r.now()
		r.wanted[p] = s
		for _, t := range r.targetsLocked(p, s) {
			if _, ok := r.answers[t.key()]; !ok {
				wake = true
			}
		}
	}
	rel := r.releaseLocked(p, s, r.now())
	r.mu.Unlock()
	if wake {
		r.poke()
	}
	return rel
}

// Pairs lists the (repo, declared tag) pairs of a snapshot's rows for Track:
// the image repository with its host (AppView.Registry) when there is one,
// else the owner/repo.
func Pairs(rows []*model.AppView) []RepoTag {
	out := make([]RepoTag, 0, len(rows))
	for _, v := range rows {
		repo := v.Registry
		if repo == "" {
			repo = v.Repo
		}
		if repo != "" {
			out = append(out, RepoTag{Repo: repo, Tag: v.DeclaredTag})
		}
	}
	return out
}
