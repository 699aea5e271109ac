package testidp

import (
	"bytes"
	"crypto/sha256"
	"encoding/pem"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// Options shape the provider.
type Options struct {
	ClientID       string        // default "hanzo-cli"
	Users          []User        // default DefaultUsers()
	PollInterval   time.Duration // device flow; default 1 s (whole seconds)
	DeviceLifetime time.Duration // default 1 min
	// HanzoPaths serves the endpoints on Hanzo's /v1/iam/oauth/* paths and
	// hides OIDC discovery, so clients must use their fallback.
	HanzoPaths bool
	// Announce replaces endpoints' URLs in the discovery document ("token",
	// "authorization", "device", "userinfo", "revocation", "jwks" → URL);
	// the provider still serves them at its own paths.
	Announce map[string]string
}

// DefaultUsers: an OrgAdmin of acme, a plain member of acme, a SuperAdmin
// (home org admin). As in IAM, owner is the home org and orgs[0] repeats it.
func DefaultUsers() []User {
	return []User{
		{ID: "u-alice", Username: "alice", Password: "alice-pw", Email: "alice@acme.test", Name: "Alice Admin",
			Owner: "acme", Orgs: []Org{{"acme", "owner"}, {"zoo", "member"}}},
		{ID: "u-bob", Username: "bob", Password: "bob-pw", Email: "bob@acme.test", Name: "Bob Member",
			Owner: "acme", Orgs: []Org{{"acme", "member"}}},
		{ID: "u-root", Username: "root", Password: "root-pw", Email: "root@hanzo.test", Name: "Root Super",
			Owner: "admin", Orgs: []Org{{"admin", "owner"}, {"hanzo", "owner"}}},
	}
}

// Server is a running provider.
type Server struct {
	Issuer string
	TLS    *httptest.Server

	mu     sync.Mutex
	grants map[string]int // token requests by grant_type
	store  *idpStorage
	device *deviceUI
}

// Start runs a provider on 127.0.0.1 over TLS until the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	if o.ClientID == "" {
		o.ClientID = "hanzo-cli"
	}
	if o.Users == nil {
		o.Users = DefaultUsers()
	}
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.DeviceLifetime <= 0 {
		o.DeviceLifetime = time.Minute
	}
	s := &Server{grants: map[string]int{}}
	s.TLS = httptest.NewUnstartedServer(nil)
	s.TLS.StartTLS()
	t.Cleanup(s.TLS.Close)
	s.Issuer = s.TLS.URL

	us := users{byID: map[string]*User{}}
	for i := range o.Users {
		us.byID[o.Users[i].ID] = &o.Users[i]
	}
	client := storage.NativeClient(o.ClientID, "http://127.0.0.1/callback", "http://localhost/callback")
	st := &idpStorage{
		Storage:  storage.NewStorageWithClients(us, map[string]*storage.Client{o.ClientID: client}),
		users:    us,
		clientID: o.ClientID,
		rotation: newRotation(),
	}
	s.store = st

	cfg := &op.Config{
		CryptoKey:             sha256.Sum256([]byte("driftboard test idp")),
		CodeMethodS256:        true,
		GrantTypeRefreshToken: true,
		SupportedUILocales:    []language.Tag{language.English},
		DeviceAuthorization: op.DeviceAuthorizationConfig{
			Lifetime:     o.DeviceLifetime,
			PollInterval: o.PollInterval,
			UserFormPath: "/device",
			UserCode:     op.UserCodeBase20,
		},
	}
	var opts []op.Option
	if o.HanzoPaths {
		opts = append(opts,
			op.WithCustomEndpoints(op.NewEndpoint("v1/iam/oauth/authorize"), op.NewEndpoint("v1/iam/oauth/token"),
				op.NewEndpoint("v1/iam/oauth/userinfo"), op.NewEndpoint("v1/iam/oauth/revoke"),
				op.NewEndpoint("v1/iam/oauth/logout"), op.NewEndpoint("v1/iam/.well-known/jwks")),
			op.WithCustomDeviceAuthorizationEndpoint(op.NewEndpoint("v1/iam/oauth/device")))
	}
	for name, u := range o.Announce {
		with, ok := map[string]func(*op.Endpoint) op.Option{
			"token": op.WithCustomTokenEndpoint, "authorization": op.WithCustomAuthEndpoint,
			"device": op.WithCustomDeviceAuthorizationEndpoint, "userinfo": op.WithCustomUserinfoEndpoint,
			"revocation": op.WithCustomRevocationEndpoint, "jwks": op.WithCustomKeysEndpoint,
		}[name]
		if !ok {
			t.Fatalf("testidp: no endpoint %q to announce", name)
		}
		opts = append(opts, with(op.NewEndpointWithURL(announcedPath[name], u)))
	}
	provider, err := op.NewProvider(cfg, st, op.StaticIssuer(s.Issuer), opts...)
	if err != nil {
		t.Fatalf("testidp: %v", err)
	}
	s.device = &deviceUI{store: st, sessions: map[string]deviceSession{}}
	mux := http.NewServeMux()
	login := op.NewIssuerInterceptor(provider.IssuerFromRequest).HandlerFunc(loginHandler(st, op.AuthCallbackURL(provider)))
	mux.HandleFunc("/login/username", login)
	s.device.register(mux)
	if o.HanzoPaths {
		mux.HandleFunc("/.well-known/openid-configuration", http.NotFound)
	}
	mux.Handle("/", provider)
	s.TLS.Config.Handler = s.count(mux)
	return s
}

// announcedPath is where the provider serves each endpoint (its defaults).
var announcedPath = map[string]string{"token": "oauth/token", "authorization": "authorize",
	"device": "/device_authorization", "userinfo": "userinfo", "revocation": "revoke", "jwks": "keys"}

// quiet silences the provider's request logging for the test binary.
func init() { slog.SetDefault(slog.New(slog.DiscardHandler)) }

// count tallies token requests by grant type before the provider sees them.
func (s *Server) count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && (r.URL.Path == "/oauth/token" || r.URL.Path == "/v1/iam/oauth/token") {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
			if v, err := url.ParseQuery(string(body)); err == nil {
				s.mu.Lock()
				s.grants[v.Get("grant_type")]++
				s.mu.Unlock()
			}
		}
		next.ServeHTTP(w, r)
	})
}

// TokenRequests is how many token requests of grant type g reached the provider.
func (s *Server) TokenRequests(g string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.grants[g]
}

// Refreshes counts refresh_token grant requests.
func (s *Server) Refreshes() int { return s.TokenRequests("refresh_token") }

// HTTPClient trusts the provider's certificate (no cookie jar).
func (s *Server) HTTPClient() *http.Client { return s.TLS.Client() }

// CAPEM is the provider certificate in PEM, for other processes and for an
// API server's AuthenticationConfiguration.
func (s *Server) CAPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.TLS.Certificate().Raw})
}
