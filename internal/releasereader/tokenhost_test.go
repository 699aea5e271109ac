package releasereader

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// authRecorder is a server that notes every request's Authorization header.
type authRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (a *authRecorder) note(r *http.Request) {
	a.mu.Lock()
	a.seen = append(a.seen, r.Header.Get("Authorization"))
	a.mu.Unlock()
}

func (a *authRecorder) headers() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.seen...)
}

// A GitHub Enterprise that answers 302 to another host, or to plain http:
// the token is bound to the configured scheme and host, so the redirected
// request goes out without it.
func TestGitHubTokenNotSentOnRedirectElsewhere(t *testing.T) {
	for _, tls := range []bool{false, true} {
		name := "http GHE to another loopback host over http"
		if tls {
			name = "https GHE to http"
		}
		t.Run(name, func(t *testing.T) {
			other := &authRecorder{}
			elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				other.note(r)
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte("[]"))
			}))
			defer elsewhere.Close()
			// Another host by name and port: localhost, not the 127.0.0.1 the GHE is on.
			target := "http://localhost:" + elsewhere.URL[strings.LastIndex(elsewhere.URL, ":")+1:]
			ghe := &authRecorder{}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ghe.note(r)
				http.Redirect(w, r, target+r.URL.Path, http.StatusFound)
			})
			srv := httptest.NewServer(h)
			if tls {
				srv.Close()
				srv = httptest.NewTLSServer(h)
			}
			defer srv.Close()
			clock := newFakeClock()
			r := newTestReader(t, srv.URL+"/api/v3/", clock, func(o *Options) {
				o.HTTPClient = srv.Client()
			})
			r.Track([]RepoTag{{Repo: "acme/api", Tag: "v1.0.0"}})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r.refresh(ctx)
			if got := ghe.headers(); len(got) == 0 || got[0] != "Bearer ghp_test" {
				t.Fatalf("the configured host saw Authorization %q, want the token", got)
			}
			got := other.headers()
			if len(got) == 0 {
				t.Fatal("the redirect was not followed; nothing to check")
			}
			for _, a := range got {
				if a != "" {
					t.Errorf("the redirect target %s got Authorization %q", target, a)
				}
			}
		})
	}
}
