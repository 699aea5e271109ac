package auth

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"time"
)

// Credentials is one login in the hanzo CLI's format. Fields this package does
// not know are kept and written back unchanged.
type Credentials struct {
	AccessToken   string
	RefreshToken  string
	TokenType     string
	Expiry        time.Time // stored as unix seconds; zero when unknown
	Subject       string
	Owner         string
	PlatformToken string

	email  string // of a new login, for its identities.json key; not stored here
	origin string // the Rust CLI's key of a login read from its store
	extra  map[string]json.RawMessage
}

var credentialKeys = []string{"access_token", "refresh_token", "token_type", "expiry", "subject", "owner", "platform_token"}

// UnmarshalJSON reads the hanzo CLI's credentials object, keeping unknown fields.
func (c *Credentials) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*c = Credentials{}
	strs := map[string]*string{
		"access_token": &c.AccessToken, "refresh_token": &c.RefreshToken, "token_type": &c.TokenType,
		"subject": &c.Subject, "owner": &c.Owner, "platform_token": &c.PlatformToken,
	}
	for k, p := range strs {
		if v, ok := raw[k]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, p); err != nil {
				return fmt.Errorf("field %s: not a string", k)
			}
		}
	}
	if v, ok := raw["expiry"]; ok {
		t, err := parseExpiry(v)
		if err != nil {
			return err
		}
		c.Expiry = t
	}
	for _, k := range credentialKeys {
		delete(raw, k)
	}
	if len(raw) > 0 {
		c.extra = raw
	}
	return nil
}

// parseExpiry accepts unix seconds (integer or float) and, leniently, RFC 3339.
func parseExpiry(v json.RawMessage) (time.Time, error) {
	if string(v) == "null" {
		return time.Time{}, nil
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err == nil {
		if i, err := n.Int64(); err == nil {
			if i == 0 {
				return time.Time{}, nil
			}
			return time.Unix(i, 0), nil
		}
		if f, err := n.Float64(); err == nil {
			return time.Unix(int64(f), 0), nil
		}
	}
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(i, 0), nil
		}
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("field expiry: want unix seconds")
}

// MarshalJSON writes every known field (as the hanzo CLI does) plus the
// unknown ones read earlier.
func (c Credentials) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(c.extra)+len(credentialKeys))
	for k, v := range c.extra {
		out[k] = v
	}
	var exp int64
	if !c.Expiry.IsZero() {
		exp = c.Expiry.Unix()
	}
	out["access_token"] = c.AccessToken
	out["refresh_token"] = c.RefreshToken
	out["token_type"] = c.TokenType
	out["expiry"] = exp
	out["subject"] = c.Subject
	out["owner"] = c.Owner
	out["platform_token"] = c.PlatformToken
	return json.Marshal(out)
}

// String never shows the tokens, so a stray %v cannot leak them.
func (c Credentials) String() string {
	return fmt.Sprintf("Credentials{subject=%q owner=%q expiry=%s access_token=%s refresh_token=%s}",
		c.Subject, c.Owner, c.Expiry.UTC().Format(time.RFC3339), present(c.AccessToken), present(c.RefreshToken))
}

// GoString keeps %#v safe as well.
func (c Credentials) GoString() string { return c.String() }

// LogValue keeps slog safe.
func (c Credentials) LogValue() slog.Value { return slog.StringValue(c.String()) }

func present(s string) string {
	if s == "" {
		return "none"
	}
	return "set"
}

func (c *Credentials) secrets() []string {
	if c == nil {
		return nil
	}
	return []string{c.AccessToken, c.RefreshToken, c.PlatformToken}
}
