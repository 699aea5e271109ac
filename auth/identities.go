package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
func (s *Store) readIdentities() (*identities, error) {
	ids := &identities{Identities: map[string]json.RawMessage{}}
	b, err := os.ReadFile(filepath.Join(s.Dir, identitiesFile))
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

func (s *Store) writeIdentities(ids *identities) error {
	out := make(map[string]any, len(ids.extra)+2)
	for k, v := range ids.extra {
		out[k] = v
	}
	out["active"] = ids.Active
	out["identities"] = ids.Identities
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encode identities: %w", err)
	}
	return writeFileAtomic(s.Dir, identitiesFile, b)
}

// keyFor picks the entry a login of subject belongs in: the active one if it
// is the same user, else an entry of the same user, else a new one.
func (ids *identities) keyFor(subject string) string {
	if ids.Active != "" {
		if raw, ok := ids.Identities[ids.Active]; ok {
			var c Credentials
			if json.Unmarshal(raw, &c) == nil && (c.Subject == "" || c.Subject == subject) {
				return ids.Active
			}
		} else {
			return ids.Active
		}
	}
	for k, raw := range ids.Identities {
		var c Credentials
		if json.Unmarshal(raw, &c) == nil && subject != "" && c.Subject == subject {
			return k
		}
	}
	if subject == "" {
		return "default"
	}
	return subject
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
