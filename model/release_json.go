package model

import "encoding/json"

// MarshalJSON leaves "assets" out unless the release was found: a count
// of 0 for a release nobody read (checks off, pending, rate-limited, an
// error) or that does not exist would read as "shipped no assets".
func (r Release) MarshalJSON() ([]byte, error) {
	type plain Release // the same fields, without this method
	if r.State == ReleaseFound {
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		plain
		Assets *int `json:"assets,omitempty"` // shadows plain's
	}{plain: plain(r)})
}
