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

	"github.com/gofrs/flock"
)

const (
	credentialsFile = "credentials.json"
	identitiesFile  = "identities.json"
	lockFile        = "credentials.lock"
)

// Store is the hanzo CLI's login directory (~/.hanzo, or HANZO_HOME).
type Store struct {
	Dir string
}

// DefaultStoreDir is HANZO_HOME, else ~/.hanzo. getenv is os.Getenv in production.
func DefaultStoreDir(getenv func(string) string) (string, error) {
	if getenv != nil {
		if d := getenv(EnvHome); d != "" {
			return d, nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory for ~/.hanzo: %w", err)
	}
	return filepath.Join(home, ".hanzo"), nil
}

// NewStore returns the store in dir.
func NewStore(dir string) *Store { return &Store{Dir: dir} }

// Load reads credentials.json, else the active entry of identities.json.
// It returns ErrNotLoggedIn when neither holds a login. A write a crash
// interrupted is read from its journal (and finished when the store's lock
// is free), so a reader never sees half of a login change.
func (s *Store) Load() (*Credentials, error) {
	p := s.pendingForRead()
	b, err := s.readStoreFile(p, credentialsFile)
	switch {
	case err == nil:
		c := new(Credentials)
		if err := json.Unmarshal(b, c); err != nil {
			return nil, newError(ErrStoreCorrupt, filepath.Join(s.Dir, credentialsFile)+" is not valid JSON ("+err.Error()+
				"); no login is used until you log in again ('driftboard login')", nil)
		}
		if c.AccessToken == "" && c.RefreshToken == "" {
			return nil, ErrNotLoggedIn
		}
		return c, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("read credentials: %w", err)
	}
	ids, err := s.readIdentitiesFrom(p)
	if err != nil || ids.Active == "" {
		return nil, ErrNotLoggedIn
	}
	raw, ok := ids.Identities[ids.Active]
	if !ok {
		return nil, ErrNotLoggedIn
	}
	c := new(Credentials)
	if err := json.Unmarshal(raw, c); err != nil || (c.AccessToken == "" && c.RefreshToken == "") {
		return nil, ErrNotLoggedIn
	}
	return c, nil
}

// pendingForRead finishes an interrupted write when the lock is free now,
// else returns its journal for the caller to read through (nil: none).
func (s *Store) pendingForRead() *pendingWrite {
	if _, err := os.Stat(filepath.Join(s.Dir, pendingFile)); err != nil {
		return nil
	}
	l := flock.New(filepath.Join(s.Dir, lockFile), flock.SetPermissions(0o600))
	if ok, err := l.TryLock(); err == nil && ok {
		err := s.recover()
		_ = l.Unlock()
		if err == nil {
			return nil
		}
	}
	p, _ := s.readPending()
	return p
}

// Save writes a new login: credentials.json and the matching entry of
// identities.json, made the active identity (only a login does that). Each
// file goes to a temp file in the same directory renamed into place.
func (s *Store) Save(c *Credentials) error { return s.save(c, true) }

// saveRefreshed writes a refreshed token of the current login without
// changing which identity the hanzo CLI has active.
func (s *Store) saveRefreshed(c *Credentials) error { return s.save(c, false) }

func (s *Store) save(c *Credentials, activate bool) error {
	if err := s.ensureDir(); err != nil {
		return err
	}
	if err := s.checkTargets(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("encode credentials: %w", err)
	}
	cred := stored(b)
	next := map[string]*string{credentialsFile: &cred}
	// An unreadable identities.json is the hanzo CLI's; it is left alone.
	if ids, err := s.readIdentities(); err == nil {
		key := ids.keyFor(c)
		merged := *c
		if old, ok := ids.Identities[key]; ok {
			var prev Credentials
			if json.Unmarshal(old, &prev) == nil && len(prev.extra) > 0 {
				merged.extra = mergeExtra(prev.extra, c.extra)
			}
		}
		entry, err := json.Marshal(merged)
		if err != nil {
			return fmt.Errorf("encode identity: %w", err)
		}
		ids.Identities[key] = entry
		if activate || ids.Active == "" {
			ids.Active = key
		}
		idb, err := ids.encode()
		if err != nil {
			return err
		}
		next[identitiesFile] = &idb
	}
	return s.writePair(next)
}

// Remove deletes credentials.json and the active identity, in one
// journaled write (a crash cannot leave the identity to be read back).
func (s *Store) Remove() error {
	next := map[string]*string{credentialsFile: nil}
	if ids, err := s.readIdentities(); err == nil && ids.Active != "" {
		delete(ids.Identities, ids.Active)
		ids.Active = ""
		idb, err := ids.encode()
		if err != nil {
			return err
		}
		next[identitiesFile] = &idb
	}
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := s.writePair(next); err != nil {
		return fmt.Errorf("remove credentials: %w", err)
	}
	return nil
}

// Lock takes the exclusive refresh lock shared by every process using this
// store. The returned func releases it.
func (s *Store) Lock(ctx context.Context) (func(), error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	l := flock.New(filepath.Join(s.Dir, lockFile), flock.SetPermissions(0o600))
	ok, err := l.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", l.Path(), err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: not acquired", l.Path())
	}
	if err := s.checkTargets(); err != nil {
		_ = l.Unlock()
		return nil, err
	}
	if err := s.recover(); err != nil {
		_ = l.Unlock()
		return nil, fmt.Errorf("finish an interrupted write in %s: %w", s.Dir, err)
	}
	return func() { _ = l.Unlock() }, nil
}

func (s *Store) ensureDir() error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", s.Dir, err)
	}
	return nil
}

// writeFileAtomic writes name in dir with mode 0600 via a temp file and rename,
// so a reader never sees half a file.
//
// A name that is a symlink to a file of the user's inside dir is written
// through: the temp file goes beside the link's target and replaces the
// target, so the link stays a link. Any other link is refused (writeTarget).
func writeFileAtomic(dir, name string, data []byte) error {
	target, err := writeTarget(dir, name)
	if err != nil {
		return err
	}
	if target != filepath.Join(dir, name) {
		dir, name = filepath.Dir(target), filepath.Base(target)
	}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// Tighten makes the store's directory private (0700) when it exists with a
// looser mode, as the hanzo CLI creates it; the notice says what changed
// ("" when nothing did).
func (s *Store) Tighten() (string, error) { return tightenDir(s.Dir) }

// checkTargets refuses a store with a file linked where it may not be written.
func (s *Store) checkTargets() error {
	return checkTargets(s.Dir, credentialsFile, identitiesFile, pendingFile)
}
