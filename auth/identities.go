package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// identities is identities.json: {active, identities{key: credentials}}, with
// unknown top-level fields and entries kept as read.
type identities struct {
	Active     string
	Identities map[string]json.RawMessage
	extra      map[string]json.RawMessage
}

// readIdentities returns an empty set when the file is absent, and an error
// when it exists but cannot be read (so it is never clobbered).
func (s *Store) readIdentities() (*identities, error) { return s.readIdentitiesFrom(nil) }

// readIdentitiesFrom reads identities.json as an interrupted write's journal
// p has it (nil: from disk).
func (s *Store) readIdentitiesFrom(p *pendingWrite) (*identities, error) {
	ids := &identities{Identities: map[string]json.RawMessage{}}
	b, err := s.readStoreFile(p, identitiesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return ids, nil
	}
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("read identities.json: %w", err)
	}
	if v, ok := raw["active"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &ids.Active); err != nil {
			return nil, fmt.Errorf("read identities.json: active is not a string")
		}
	}
	if v, ok := raw["identities"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &ids.Identities); err != nil {
			return nil, fmt.Errorf("read identities.json: identities is not an object")
		}
	}
	delete(raw, "active")
	delete(raw, "identities")
	ids.extra = raw
	return ids, nil
}

// encode is identities.json's content as stored.
func (ids *identities) encode() (string, error) {
	out := make(map[string]any, len(ids.extra)+2)
	for k, v := range ids.extra {
		out[k] = v
	}
	out["active"] = ids.Active
	out["identities"] = ids.Identities
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode identities: %w", err)
	}
	return stored(b), nil
}

// keyFor picks the entry a login belongs in: the active one if it is the
// same user, else an entry of the same user under any key (keys other
// tools or older versions made keep working), else a new one named as the
// Go hanzo CLI names it.
func (ids *identities) keyFor(c *Credentials) string {
	if ids.Active != "" {
		if raw, ok := ids.Identities[ids.Active]; ok {
			var cur Credentials
			if json.Unmarshal(raw, &cur) == nil && (cur.Subject == "" || cur.Subject == c.Subject) {
				return ids.Active
			}
		} else {
			return ids.Active
		}
	}
	for k, raw := range ids.Identities {
		var cur Credentials
		if json.Unmarshal(raw, &cur) == nil && c.Subject != "" && cur.Subject == c.Subject {
			return k
		}
	}
	email := c.email
	if email == "" { // a login stored without it: the token names it
		var claims struct {
			Email string `json:"email"`
		}
		unverifiedClaims(c.AccessToken, &claims)
		email = claims.Email
	}
	return identityKey(c.Owner, email, c.Subject)
}

// identityKey is the Go hanzo CLI's key: <owner>/<email-local-part> (the
// same email in two orgs is two identities); the subject when the login
// names no owner or email.
func identityKey(owner, email, subject string) string {
	local, _, _ := strings.Cut(email, "@")
	switch {
	case owner != "" && local != "":
		return owner + "/" + local
	case subject != "":
		return subject
	}
	return "default"
}

func mergeExtra(old, cur map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(old)+len(cur))
	for k, v := range old {
		out[k] = v
	}
	for k, v := range cur {
		out[k] = v
	}
	return out
}
