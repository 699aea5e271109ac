package auth

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Defaults of the Hanzo IAM.
const (
	DefaultIssuer   = "https://hanzo.id"
	DefaultClientID = "hanzo-cli"

	EnvIssuer   = "HANZO_IAM_ISSUER"
	EnvClientID = "HANZO_CLIENT_ID"
	EnvToken    = "HANZO_TOKEN"
	EnvHome     = "HANZO_HOME"
)

// Scopes the board asks for.
func Scopes() []string { return []string{"openid", "profile", "email", "offline_access"} }

// Settings name the IAM to talk to.
type Settings struct {
	Issuer   string `json:"issuer,omitempty"`
	ClientID string `json:"clientID,omitempty"`
}

// ResolveSettings picks each field from flags, then the environment
// (HANZO_IAM_ISSUER, HANZO_CLIENT_ID), then the config file, then the
// defaults. getenv is os.Getenv in production.
func ResolveSettings(flags, config Settings, getenv func(string) string) Settings {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s := Settings{
		Issuer:   first(flags.Issuer, getenv(EnvIssuer), config.Issuer, DefaultIssuer),
		ClientID: first(flags.ClientID, getenv(EnvClientID), config.ClientID, DefaultClientID),
	}
	// The issuer is used exactly as given: OIDC compares it byte for byte
	// with discovery's "issuer" and the tokens' "iss" (zitadel and Auth0
	// issuers end in "/").
	return s
}

// CheckIssuer refuses an issuer the token may not be fetched from: it must
// be an https URL, or http on a loopback host (tests, a local IdP).
func CheckIssuer(issuer string) error {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return fmt.Errorf("IAM issuer %q is not a URL", issuer)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("IAM issuer %s must be https (plain http only on a loopback address)", u.Redacted())
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func first(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// CheckEndpoint refuses an endpoint from the issuer's discovery document
// (field names it) that tokens, codes or the user's password would reach
// in clear: it must be https, or plain http only when the issuer itself is
// plain http on loopback (a local IdP, as CheckIssuer allows) and the
// endpoint is on loopback too.
func CheckEndpoint(issuer, field, endpoint string) error {
	u, err := url.Parse(endpoint)
	if err == nil && u.Host != "" {
		if u.Scheme == "https" {
			return nil
		}
		iu, _ := url.Parse(issuer)
		if u.Scheme == "http" && iu != nil && iu.Scheme == "http" && isLoopback(iu.Hostname()) && isLoopback(u.Hostname()) {
			return nil
		}
	}
	return fmt.Errorf("the discovery document of issuer %s names %s %s, which is not https; "+
		"nothing is sent there (plain http only on loopback, for an issuer on loopback http)", issuer, field, endpoint)
}
