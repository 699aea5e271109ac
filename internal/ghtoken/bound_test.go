package ghtoken

import (
	"net/http"
	"net/url"
	"testing"
)

type lastHeader struct{ auth string }

func (l *lastHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	l.auth = r.Header.Get("Authorization")
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
}

// The binding is scheme, host and port: same host over http, or another
// port, is another place.
func TestBoundTokenScheme(t *testing.T) {
	rec := &lastHeader{}
	bt := Bind(rec, "ghp_x", &url.URL{Scheme: "https", Host: "ghe.example.com"})
	for u, want := range map[string]string{
		"https://ghe.example.com/api/v3/x":     "Bearer ghp_x",
		"https://GHE.example.com:443/api/v3/x": "Bearer ghp_x",
		"http://ghe.example.com/api/v3/x":      "",
		"http://ghe.example.com:443/api/v3/x":  "",
		"https://ghe.example.com:8443/x":       "",
		"https://ghe.example.com.evil.test/x":  "",
	} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Authorization", "Bearer stale")
		if _, err := bt.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if rec.auth != want {
			t.Errorf("%s: Authorization %q, want %q", u, rec.auth, want)
		}
	}
}
