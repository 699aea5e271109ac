package auth

import "strings"

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
	s.Issuer = strings.TrimRight(s.Issuer, "/")
	return s
}

func first(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
