package githubforge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v84/github"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
)

// Without the right to write, every refusal comes before any write.
func TestRefusalsWriteNothing(t *testing.T) {
	for _, tc := range []struct {
		name, token string
		opts        githubtest.Options
		want        string
	}{
		{"no token", "", githubtest.Options{}, "no GitHub token for 127.0.0.1"},
		{"a token GitHub rejects", "gho_revoked", githubtest.Options{}, "rejected the token (401 Bad credentials)"},
		{"read access only", "gho_reader", githubtest.Options{}, "this token cannot push to hanzoai/universe"},
		{"a private repository the token cannot see", "gho_outsider", githubtest.Options{Private: true},
			"read hanzoai/universe: not found on 127.0.0.1, or this token cannot see it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newUniverse(t, tc.opts)
			s.AddToken("gho_outsider", "stranger", githubtest.None)
			c := change(t, newForge(t, s, "gho_writer"))
			before := len(s.Requests())
			f := newForge(t, s, tc.token)
			_, err := f.Propose(context.Background(), c)
			refused(t, err, tc.want)
			if w := s.Writes(); len(w) != 0 {
				t.Errorf("wrote %+v", w)
			}
			if tc.token == "" && len(s.Requests()) != before {
				t.Errorf("asked GitHub without a token: %+v", s.Requests()[before:])
			}
			_, err = f.Merge(context.Background(), universe, 1, "0123456789abcdef0123456789abcdef01234567")
			if err == nil {
				t.Error("Merge without the right to: no error")
			}
		})
	}
}

// GitHub's own 403 (a merge without push access) is a refusal that says so.
func TestForbiddenIsARefusal(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	pr, err := newForge(t, s, "gho_writer").Propose(context.Background(), change(t, newForge(t, s, "gho_writer")))
	if err != nil {
		t.Fatal(err)
	}
	base := s.Head("main")
	_, err = newForge(t, s, "gho_reader").Merge(context.Background(), universe, pr.Number, pr.HeadSHA)
	refused(t, err, "no permission (403 Must have push access to repository)")
	if s.Head("main") != base {
		t.Error("merged")
	}
}

// An https API URL only: the token never travels in clear.
func TestPlainHTTPAPIURLIsRefused(t *testing.T) {
	if _, err := New(Config{APIURL: "http://ghe.example.com/api/v3/", Token: "gho_x"}); err == nil {
		t.Error("an http API URL was accepted")
	}
}

// headerLog notes each request's Authorization header.
type headerLog struct {
	mu   sync.Mutex
	auth []string
}

func (h *headerLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.auth = append(h.auth, r.Header.Get("Authorization"))
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"login":"elsewhere"}`))
}

// The configured host redirects to another server: the request is not
// followed there, so neither the token nor a write's body reaches it, and
// the answer is a refusal that names where it was sent.
func TestTokenNeverLeavesTheConfiguredHost(t *testing.T) {
	elsewhere := &headerLog{}
	other := httptest.NewTLSServer(elsewhere)
	defer other.Close()
	otherURL := other.URL // another port is another place (and the test certificate names no other host)
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	c := change(t, f)
	s.RedirectTo(otherURL)
	_, err := f.Login(context.Background())
	refused(t, err, "redirected to "+otherURL+"/api/v3/user; not followed")
	_, err = f.Propose(context.Background(), c)
	refused(t, err, "redirected to")
	for _, a := range elsewhere.auth {
		if a != "" {
			t.Errorf("the other server got Authorization %q", a)
		}
	}
	if got := s.Requests(); !got[len(got)-1].Authorized {
		t.Error("the configured host did not get the token: nothing was tested")
	}
}

// Even where a redirect is followed, the bound transport keeps the token
// to the configured host.
func TestBoundTransportDropsTheTokenOnAFollowedRedirect(t *testing.T) {
	elsewhere := &headerLog{}
	other := httptest.NewTLSServer(elsewhere)
	defer other.Close()
	s := newUniverse(t, githubtest.Options{})
	s.RedirectTo(other.URL)
	api, _ := url.Parse(s.APIURL())
	c := boundClient(s.Client(), "gho_writer", api)
	c.CheckRedirect = nil // follow anywhere
	resp, err := c.Get(s.APIURL() + "user")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := s.Requests(); len(got) != 1 || !got[0].Authorized || len(elsewhere.auth) == 0 {
		t.Fatalf("configured host saw %+v, the other %d requests: nothing to check", got, len(elsewhere.auth))
	}
	if len(elsewhere.auth) != 1 || elsewhere.auth[0] != "" {
		t.Errorf("the other server got Authorization %q", elsewhere.auth)
	}
}

// A repository URL on another host is refused before any request.
func TestRepoURLOnAnotherHostAsksNothing(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	_, err := ParseRepoURL("https://github.com/hanzoai/universe.git", f.Host())
	refused(t, err, `on "github.com", not the configured GitHub host 127.0.0.1`)
	if got := s.Requests(); len(got) != 0 {
		t.Errorf("requests: %+v", got)
	}
}

// A spent rate limit is GitHub's 403 too, but not a refusal of permission.
func TestRateLimitIsNotNoPermission(t *testing.T) {
	f := &Forge{host: "github.com"}
	resp := &github.Response{Response: &http.Response{StatusCode: 403, Header: http.Header{}}}
	err := f.refusal("read hanzoai/universe", resp, &github.RateLimitError{Response: resp.Response, Message: "API rate limit exceeded"})
	if _, isRefusal := err.(*promote.Refused); isRefusal || err == nil || !strings.Contains(err.Error(), "rate limit") {
		t.Errorf("err = %v, want a rate-limit error", err)
	}
}

// A validation failure's details are GitHub's message, kept.
func TestValidationDetailsKept(t *testing.T) {
	f := &Forge{host: "github.com"}
	resp := &github.Response{Response: &http.Response{StatusCode: 422, Header: http.Header{}}}
	err := f.refusal("open the pull request", resp, &github.ErrorResponse{Response: resp.Response, Message: "Validation Failed",
		Errors: []github.Error{{Resource: "PullRequest", Code: "custom", Message: "A pull request already exists for hanzoai:x."}}})
	want := "refused: open the pull request: Validation Failed: A pull request already exists for hanzoai:x."
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestParseRepoURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://github.com/hanzoai/universe":             "hanzoai/universe",
		"https://github.com/hanzoai/universe.git":         "hanzoai/universe",
		"https://GitHub.com/hanzoai/universe/":            "hanzoai/universe",
		"git@github.com:hanzoai/universe.git":             "hanzoai/universe",
		"ssh://git@github.com/hanzoai/universe.git":       "hanzoai/universe",
		"ssh://git@github.com:22/hanzoai/universe.git":    "hanzoai/universe",
		"https://github.com.evil.test/hanzoai/universe":   "",
		"https://evil.test/github.com/hanzoai/universe":   "",
		"git@evil.test:hanzoai/universe.git":              "",
		"http://github.com/hanzoai/universe":              "",
		"https://user:pw@github.com/hanzoai/universe":     "",
		"https://github.com/hanzoai/universe/tree/main":   "",
		"https://github.com/hanzoai":                      "",
		"https://github.com/../universe":                  "",
		"https://github.com/hanzoai/universe?x=1":         "",
		"file:///srv/git/universe.git":                    "",
		"ssh://root@github.com/hanzoai/universe.git":      "",
		"https://github.com/hanzoai/uni\x1b[31mverse.git": "",
	} {
		repo, err := ParseRepoURL(raw, "github.com")
		if want == "" {
			if _, ok := err.(*promote.Refused); !ok {
				t.Errorf("%q: %v, %v, want a refusal", raw, repo, err)
			}
			continue
		}
		if err != nil || repo.String() != want {
			t.Errorf("%q: %v, %v, want %s", raw, repo, err, want)
		}
	}
}
