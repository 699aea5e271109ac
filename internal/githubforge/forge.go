// Package githubforge is the promotion's Forge over GitHub's REST API: the
// user's own token, sent over https to the configured host only, and writes
// that never touch the base branch (a branch, one commit through the Git
// Data API, a pull request).
package githubforge

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/ghtoken"
	"github.com/hanzoai/driftboard/internal/promote"
)

// Config says which GitHub to talk to and how the token is found.
type Config struct {
	// APIURL is a GitHub Enterprise API base URL; "" is api.github.com.
	// It must be https: the token never travels in clear.
	APIURL string
	// Token, if set, is used as is; otherwise it is resolved as gh does
	// (GH_TOKEN/GITHUB_TOKEN, gh's hosts.yml, TokenStore) for the API's host.
	Token      string
	Getenv     func(string) string
	TokenStore func(host string) (token, source string) // default gh's store, keyring included
	HTTPClient *http.Client                             // default: 30s timeout
}

// Forge implements promote.Forge against one GitHub host.
type Forge struct {
	gh          *github.Client
	host        string // the web host repositories live on (github.com, a GHE host)
	token       bool
	tokenSource string
}

var _ promote.Forge = (*Forge)(nil)

// New builds the Forge. With no token it still answers, refusing every call
// with the reason, so the board can say why before anything is written.
func New(cfg Config) (*Forge, error) {
	api := cfg.APIURL
	if api == "" {
		api = "https://api.github.com/"
	}
	u, err := url.Parse(api)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q: must be an https URL (the token is never sent in clear)", cfg.APIURL)
	}
	f := &Forge{host: ghtoken.Host(cfg.APIURL)}
	token, source := cfg.Token, "option"
	if token == "" {
		store := cfg.TokenStore
		if store == nil {
			store = ghtoken.GHStore
		}
		token, source = ghtoken.Resolve(f.host, cfg.Getenv, store)
	}
	if token != "" {
		f.token, f.tokenSource = true, source
	}
	f.gh = github.NewClient(boundClient(cfg.HTTPClient, token, u))
	if cfg.APIURL != "" {
		if f.gh, err = f.gh.WithEnterpriseURLs(api, api); err != nil {
			return nil, fmt.Errorf("GitHub API URL %q: %w", cfg.APIURL, err)
		}
	}
	f.gh.UserAgent = "driftboard"
	return f, nil
}

// Host is the web host repositories must be on (see ParseRepoURL).
func (f *Forge) Host() string { return f.host }

// TokenSource names where the token came from (never the token), "" if none.
func (f *Forge) TokenSource() string { return f.tokenSource }

// boundClient is base (or a client with a 30s timeout) whose requests carry
// token only to api's scheme and host, and follow redirects only there.
func boundClient(base *http.Client, token string, api *url.URL) *http.Client {
	if base == nil {
		base = &http.Client{Timeout: 30 * time.Second}
	}
	hc := *base
	if token != "" {
		next := base.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		hc.Transport = ghtoken.Bind(next, token, api)
	}
	hc.CheckRedirect = sameOrigin(api)
	return &hc
}

// sameOrigin follows a redirect only within the API's scheme and host: a
// write redirected elsewhere would carry its body there, token or not.
func sameOrigin(api *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if req.URL.Scheme != api.Scheme || !strings.EqualFold(req.URL.Host, api.Host) {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// noToken is the refusal of every call when no token was found.
func (f *Forge) noToken() error {
	if f.token {
		return nil
	}
	return &promote.Refused{Reason: "no GitHub token for " + f.host + ": set GH_TOKEN or run gh auth login"}
}

// refusal turns GitHub's answers that wrote nothing into promote.Refused
// (doing names what was asked); other errors are returned wrapped.
func (f *Forge) refusal(doing string, resp *github.Response, err error) error {
	if err == nil {
		return nil
	}
	var limited *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	switch {
	case errors.As(err, &limited):
		return fmt.Errorf("%s: GitHub's rate limit for this token is spent until %s", doing, limited.Rate.Reset.Format("15:04:05"))
	case errors.As(err, &abuse):
		return fmt.Errorf("%s: GitHub's secondary rate limit: try again in %s", doing, abuse.GetRetryAfter())
	}
	message := githubMessage(err)
	if resp == nil || resp.Response == nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized:
		return &promote.Refused{Reason: doing + ": " + f.host + " rejected the token (401 " + message + "); run gh auth login or set GH_TOKEN"}
	case code == http.StatusForbidden:
		return &promote.Refused{Reason: doing + ": no permission (403 " + message + ")"}
	case code == http.StatusNotFound:
		return &promote.Refused{Reason: doing + ": not found on " + f.host + ", or this token cannot see it"}
	case code >= 300 && code < 400:
		return &promote.Refused{Reason: doing + ": " + f.host + " redirected to " + resp.Header.Get("Location") + "; not followed"}
	case code == http.StatusMethodNotAllowed, code == http.StatusConflict, code == http.StatusUnprocessableEntity:
		if message == "" {
			message = resp.Status
		}
		return &promote.Refused{Reason: doing + ": " + message}
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// githubMessage is GitHub's message for err, with the details a validation
// failure carries; "" if err is not GitHub's.
func githubMessage(err error) string {
	var ge *github.ErrorResponse
	if !errors.As(err, &ge) {
		return ""
	}
	parts := []string{ge.Message}
	for _, e := range ge.Errors {
		if e.Message != "" {
			parts = append(parts, e.Message)
		}
	}
	return strings.Join(parts, ": ")
}
