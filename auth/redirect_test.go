package auth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// An IAM (or whoever answers for it) that redirects the token endpoint
// elsewhere gets nothing sent there: a 307 would re-send the form, refresh
// token and all. A redirect within the IAM's own host is still followed.
func TestIdPRedirectNeverCarriesAFormElsewhere(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		leaked.Store(string(b))
	}))
	defer other.Close()
	idp := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/elsewhere":
			http.Redirect(w, r, other.URL+"/token", http.StatusTemporaryRedirect)
		case "/moved":
			http.Redirect(w, r, "/token", http.StatusTemporaryRedirect)
		case "/token":
			b, _ := io.ReadAll(r.Body)
			_, _ = w.Write(b)
		}
	}))
	defer idp.Close()
	s := NewSession(Options{HTTPClient: idp.Client(), Settings: Settings{Issuer: idp.URL}, Store: NewStore(t.TempDir())})
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"r-secret"}}

	_, err := s.hc.PostForm(idp.URL+"/elsewhere", form)
	if err == nil || !strings.Contains(err.Error(), "nothing is sent to another host") {
		t.Errorf("redirect to another host over http: err %v", err)
	}
	if got := leaked.Load(); got != nil {
		t.Fatalf("the form reached the other host: %q", got)
	}

	resp, err := s.hc.PostForm(idp.URL+"/moved", form)
	if err != nil {
		t.Fatalf("redirect within the IAM's host: %v", err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); !strings.Contains(string(b), "r-secret") {
		t.Errorf("the same-host redirect lost the form: %q", b)
	}
}
