package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gofrs/flock"
)

// RustStore is the Rust hanzo CLI's login (`hanzo auth login`): the tokens
// in $XDG_DATA_HOME/hanzo/credentials, a JSON map "<brand>/<owner>/<name>" →
// token set (the CLI writes each as a JSON string; an object is read too),
// and the index with the active identity per brand in
// ~/.config/hanzo/config.toml ([auth]). The CLI serialises refreshes on
// refresh.lock and writes of the map on credentials.lock, both beside the
// map (flock, as here).
type RustStore struct {
	Credentials string // the token map
	Config      string // config.toml with the [auth] index
	Brand       string // "hanzo"
}

// DefaultRustStore places the Rust CLI's store as it does on Linux: XDG_DATA_HOME
// (else ~/.local/share) and XDG_CONFIG_HOME (else ~/.config). nil without a home.
func DefaultRustStore(getenv func(string) string) *RustStore {
	home := getenv("HOME")
	data, conf := getenv("XDG_DATA_HOME"), getenv("XDG_CONFIG_HOME")
	if data == "" && home != "" {
		data = filepath.Join(home, ".local", "share")
	}
	if conf == "" && home != "" {
		conf = filepath.Join(home, ".config")
	}
	if data == "" || conf == "" {
		return nil
	}
	return &RustStore{Credentials: filepath.Join(data, "hanzo", "credentials"),
		Config: filepath.Join(conf, "hanzo", "config.toml"), Brand: "hanzo"}
}

// rustIndex is the part of config.toml this package reads.
type rustIndex struct {
	Auth struct {
		Active     map[string]string `toml:"active"`
		Identities []struct {
			Brand string `toml:"brand"`
			Owner string `toml:"owner"`
			Name  string `toml:"name"`
		} `toml:"identities"`
	} `toml:"auth"`
}

// activeKey is the active identity's key in the token map: the index's
// pointer, only when the index also lists it (as the CLI requires).
func (r *RustStore) activeKey() (string, error) {
	var idx rustIndex
	if _, err := toml.DecodeFile(r.Config, &idx); errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotLoggedIn
	} else if err != nil {
		return "", newError(ErrStoreCorrupt, r.Config+" cannot be read ("+err.Error()+")", nil)
	}
	act := idx.Auth.Active[r.Brand]
	for _, id := range idx.Auth.Identities {
		if act != "" && id.Brand == r.Brand && id.Owner+"/"+id.Name == act {
			return r.Brand + "/" + act, nil
		}
	}
	return "", ErrNotLoggedIn
}

func (r *RustStore) readMap() (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	b, err := os.ReadFile(r.Credentials)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, newError(ErrStoreCorrupt, r.Credentials+" is not valid JSON ("+err.Error()+")", nil)
	}
	return m, nil
}

// tokenSet decodes one entry (a JSON string holding the object, or the
// object), keeping its fields; quoted says which form it had.
func tokenSet(raw json.RawMessage) (set map[string]json.RawMessage, quoted bool, err error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw, quoted = json.RawMessage(s), true
	}
	err = json.Unmarshal(raw, &set)
	return set, quoted, err
}

// Load returns the active identity's login (ErrNotLoggedIn when there is none).
func (r *RustStore) Load() (*Credentials, error) {
	key, err := r.activeKey()
	if err != nil {
		return nil, err
	}
	m, err := r.readMap()
	if err != nil {
		return nil, err
	}
	raw, ok := m[key]
	if !ok {
		return nil, ErrNotLoggedIn
	}
	set, _, err := tokenSet(raw)
	if err != nil {
		return nil, newError(ErrStoreCorrupt, r.Credentials+": the entry of "+key+" is not a token set", nil)
	}
	c := &Credentials{origin: key}
	for name, p := range map[string]*string{"access_token": &c.AccessToken, "refresh_token": &c.RefreshToken, "token_type": &c.TokenType} {
		_ = json.Unmarshal(set[name], p)
	}
	if c.AccessToken == "" && c.RefreshToken == "" {
		return nil, ErrNotLoggedIn
	}
	var claims struct {
		Sub   string `json:"sub"`
		Owner string `json:"owner"`
	}
	unverifiedClaims(c.AccessToken, &claims) // bookkeeping only; the token is verified before use
	c.Subject, c.Owner = claims.Sub, claims.Owner
	return c, nil
}

// lock takes the CLI's lock file name+".lock" beside the token map.
func (r *RustStore) lock(ctx context.Context, name string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(r.Credentials), 0o700); err != nil {
		return nil, err
	}
	l := flock.New(filepath.Join(filepath.Dir(r.Credentials), name+".lock"), flock.SetPermissions(0o600))
	ok, err := l.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("lock %s: not acquired (%v)", l.Path(), err)
	}
	// Before a refresh spends its token: the map must be writable where it is.
	if err := checkTargets(filepath.Dir(r.Credentials), filepath.Base(r.Credentials)); err != nil {
		_ = l.Unlock()
		return nil, err
	}
	return func() { _ = l.Unlock() }, nil
}

// Tighten makes the directory of the token map private (0700), as
// Store.Tighten does ~/.hanzo; the notice says what changed.
func (r *RustStore) Tighten() (string, error) { return tightenDir(filepath.Dir(r.Credentials)) }

// update rewrites the entry of key under credentials.lock, re-reading the
// map first so a concurrent write of another identity is kept. change gets
// the entry's fields; returning false drops the entry. A key no longer in
// the map (logged out meanwhile) is not brought back.
func (r *RustStore) update(ctx context.Context, key string, change func(map[string]json.RawMessage) bool) error {
	unlock, err := r.lock(ctx, "credentials")
	if err != nil {
		return err
	}
	defer unlock()
	m, err := r.readMap()
	if err != nil {
		return err
	}
	raw, ok := m[key]
	if !ok {
		return nil
	}
	set, quoted, err := tokenSet(raw)
	if err != nil {
		return err
	}
	if !change(set) {
		delete(m, key)
	} else {
		b, err := json.Marshal(set)
		if err != nil {
			return err
		}
		if quoted {
			b, _ = json.Marshal(string(b))
		}
		m[key] = b
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Dir(r.Credentials), filepath.Base(r.Credentials), b)
}

// saveRefreshed writes a refreshed token set back to the identity it came from.
func (r *RustStore) saveRefreshed(ctx context.Context, c *Credentials, now time.Time) error {
	return r.update(ctx, c.origin, func(set map[string]json.RawMessage) bool {
		set["access_token"], _ = json.Marshal(c.AccessToken)
		set["token_type"], _ = json.Marshal(c.TokenType)
		if c.RefreshToken != "" {
			set["refresh_token"], _ = json.Marshal(c.RefreshToken)
		}
		if !c.Expiry.IsZero() {
			set["expires_in"], _ = json.Marshal(int64(c.Expiry.Sub(now).Seconds()))
		}
		return true
	})
}

// remove drops the identity's token set; the CLI then reads that identity
// as signed out (it never falls back to another).
func (r *RustStore) remove(ctx context.Context, key string) error {
	return r.update(ctx, key, func(map[string]json.RawMessage) bool { return false })
}
