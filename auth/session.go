package auth

import (
	"context"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// DefaultRefreshMargin is how long before expiry the access token is refreshed.
const DefaultRefreshMargin = 2 * time.Minute

// Options configure a Session. Everything with side effects is injected.
type Options struct {
	Settings Settings
	Store    *Store
	// RustStore is the Rust hanzo CLI's store, read beside Store (nil: not read).
	RustStore     *RustStore
	HTTPClient    *http.Client     // nil: a client with a 30 s timeout
	Now           func() time.Time // nil: time.Now
	RefreshMargin time.Duration    // 0: DefaultRefreshMargin
	// EnvToken is the value of HANZO_TOKEN: when set it is the access token,
	// used as is and never refreshed or written.
	EnvToken string
}

// Session is the board's IAM identity: login, the stored token, refresh,
// the verified principal. Safe for concurrent use.
type Session struct {
	settings Settings
	store    *Store
	rust     *RustStore
	hc       *http.Client
	now      func() time.Time
	margin   time.Duration
	envToken string

	mu         sync.Mutex // guards discovered
	discovered *endpoints
	refreshMu  sync.Mutex // one refresher per process (the file lock covers other processes)
	verified   verifiedCache
}

// NewSession returns a session; it does no IO.
func NewSession(o Options) *Session {
	s := &Session{
		settings: ResolveSettings(o.Settings, Settings{}, nil),
		store:    o.Store,
		rust:     o.RustStore,
		hc:       o.HTTPClient,
		now:      o.Now,
		margin:   o.RefreshMargin,
		envToken: strings.TrimSpace(o.EnvToken),
	}
	if s.hc == nil {
		s.hc = &http.Client{Timeout: 30 * time.Second}
	}
	s.hc = sameHostRedirects(s.hc)
	if s.now == nil {
		s.now = time.Now
	}
	if s.margin <= 0 {
		s.margin = DefaultRefreshMargin
	}
	if s.store == nil {
		dir, _ := DefaultStoreDir(os.Getenv)
		s.store = NewStore(dir)
	}
	return s
}

// Issuer is the IAM issuer URL this session trusts.
func (s *Session) Issuer() string { return s.settings.Issuer }

// ClientID is the OAuth client id this session uses.
func (s *Session) ClientID() string { return s.settings.ClientID }

// withClient puts the injected HTTP client where x/oauth2 and go-oidc look.
func (s *Session) withClient(ctx context.Context) context.Context {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.hc)
	return oidc.ClientContext(ctx, s.hc)
}

// endpoints of the IAM, from OIDC discovery of the issuer exactly as
// configured. A discovery that fails is an error: guessing endpoint paths
// would talk to URLs the issuer never published.
type endpoints struct {
	provider *oidc.Provider
	keys     oidc.KeySet // the issuer's JWKS, failures marked (keys.go)
	algs     []string    // signing algorithms the issuer names, of those go-oidc verifies
	oauth    oauth2.Endpoint
	revoke   string
	userinfo string
}

func (s *Session) endpoints(ctx context.Context) (*endpoints, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.discovered != nil {
		return s.discovered, nil
	}
	if err := CheckIssuer(s.settings.Issuer); err != nil {
		return nil, newError(ErrLoginFailed, "", err)
	}
	p, err := oidc.NewProvider(s.withClient(ctx), s.settings.Issuer)
	if err != nil {
		// Not cached: the IdP may be down for now and serve discovery later.
		return nil, newError(ErrIdPUnavailable, "OIDC discovery of issuer "+s.settings.Issuer+
			" (it must serve /.well-known/openid-configuration naming exactly this issuer)", err)
	}
	var extra struct {
		Device   string   `json:"device_authorization_endpoint"`
		Revoke   string   `json:"revocation_endpoint"`
		UserInfo string   `json:"userinfo_endpoint"`
		JWKS     string   `json:"jwks_uri"`
		Algs     []string `json:"id_token_signing_alg_values_supported"`
	}
	_ = p.Claims(&extra)
	pe := p.Endpoint()
	for _, e := range [][2]string{{"authorization_endpoint", pe.AuthURL}, {"token_endpoint", pe.TokenURL},
		{"device_authorization_endpoint", first(pe.DeviceAuthURL, extra.Device)}, {"jwks_uri", extra.JWKS},
		{"userinfo_endpoint", extra.UserInfo}, {"revocation_endpoint", extra.Revoke}} {
		if e[1] == "" {
			continue // optional endpoints the issuer does not offer
		}
		if err := CheckEndpoint(s.settings.Issuer, e[0], e[1]); err != nil {
			return nil, newError(ErrLoginFailed, "", err) // not cached: the next call says it again
		}
	}
	ep := &endpoints{provider: p, oauth: p.Endpoint(), revoke: extra.Revoke, userinfo: extra.UserInfo,
		keys: s.newKeySet(extra.JWKS)}
	for _, a := range extra.Algs {
		if slices.Contains(signingAlgs, a) {
			ep.algs = append(ep.algs, a)
		}
	}
	if ep.oauth.DeviceAuthURL == "" {
		ep.oauth.DeviceAuthURL = extra.Device
	}
	ep.oauth.AuthStyle = oauth2.AuthStyleInParams // a public client: client_id in the form, one request each
	s.discovered = ep
	return ep, nil
}

func (s *Session) oauthConfig(ep *endpoints, redirect string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:    s.settings.ClientID,
		Endpoint:    ep.oauth,
		RedirectURL: redirect,
		Scopes:      Scopes(),
	}
}
