package releasereader

import (
	"context"
	"testing"

	"github.com/hanzoai/driftboard/internal/ghtoken"
)

func TestNewUsesResolvedTokenOrWarns(t *testing.T) {
	clock := newFakeClock()
	_, srv := newFakeGitHub(t, clock)
	withEnv := func(kv map[string]string) *Reader {
		return newTestReader(t, srv.URL, clock, func(o *Options) {
			o.Token = ""
			o.Getenv = func(k string) string { return kv[k] }
			o.TokenStore = func(string) (string, string) { return "", "" } // not this machine's gh
		})
	}
	// srv.URL is an Enterprise host (127.0.0.1), so the Enterprise variables apply.
	if st := withEnv(map[string]string{"GH_ENTERPRISE_TOKEN": "x"}).Status(); st.Warning != "" || st.TokenSource != "$GH_ENTERPRISE_TOKEN" {
		t.Errorf("with a token: %+v", st)
	}
	if st := withEnv(map[string]string{"HOME": t.TempDir()}).Status(); st.Warning != AnonymousWarning || st.TokenSource != "" {
		t.Errorf("without a token: %+v", st)
	}
}

func TestCachePath(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if p, _ := DefaultCachePath(env(map[string]string{"XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"})); p != "/x/cache/driftboard/releases.json" {
		t.Errorf("XDG cache path %q", p)
	}
	if p, _ := DefaultCachePath(env(map[string]string{"XDG_CACHE_HOME": "relative", "HOME": "/home/u"})); p != "/home/u/.cache/driftboard/releases.json" {
		t.Errorf("home cache path %q (a relative XDG_CACHE_HOME is ignored per the spec)", p)
	}
}

func TestTokenStoreIsTheLastResort(t *testing.T) {
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("hanzoai/iam", fakeRelease{tag: "v1.0.0", assets: 1})
	asked := 0
	store := func(host string) (string, string) {
		asked++
		return "gho_keyring", "gh auth token (system keyring)"
	}
	r := newTestReader(t, srv.URL, clock, func(o *Options) {
		o.Token, o.TokenStore = "", store
		o.Getenv = func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] }
	})
	r.Track([]RepoTag{{"ghcr.io/hanzoai/iam", "v1.0.0"}})
	r.refresh(context.Background())
	if gh.auth != "Bearer gho_keyring" {
		t.Errorf("Authorization %q, want the store's token", gh.auth)
	}
	if st := r.Status(); st.TokenSource != "gh auth token (system keyring)" || st.Warning != "" {
		t.Errorf("status %+v", st)
	}
	if r.Checks().Anonymous {
		t.Error("checks say anonymous with a token")
	}
	asked = 0
	tok, src := ghtoken.Resolve("ghe.example.com", func(k string) string {
		return map[string]string{"GH_ENTERPRISE_TOKEN": "e"}[k]
	}, store)
	if tok != "e" || src != "$GH_ENTERPRISE_TOKEN" || asked != 0 {
		t.Errorf("env before the store: %q from %q, store asked %d times", tok, src, asked)
	}
}

func TestTokenNotSentInClear(t *testing.T) {
	clock := newFakeClock()
	r := newTestReader(t, "http://ghe.example.com/api/v3/", clock, nil)
	st := r.Status()
	if st.TokenSource != "" || !r.Checks().Anonymous || st.Warning == "" {
		t.Errorf("a plain-HTTP GitHub URL off this machine: %+v, want the token dropped and a warning", st)
	}
}
