package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// A login lives in two files (credentials.json and identities.json) and no
// rename replaces both at once. So every write of the pair is journaled:
//
//  1. pendingFile is written (temp file + rename): the new content of both
//     files and a hash of what each held before;
//  2. credentials.json, then identities.json are replaced;
//  3. pendingFile is removed.
//
// A crash between any two steps leaves a state every reader resolves to one
// login: before step 1 the old pair; from step 1 until step 3 the journal,
// which Load reads in place of the files. The next holder of the store's
// lock (or a Load that gets it without waiting) finishes the writes. A
// journal whose files were since changed by someone else (the Go hanzo CLI,
// which takes no lock) is stale and dropped: that writer's state wins.
const pendingFile = "credentials.pending"

// pendingWrite is the journal: per file its new content (nil: removed), and
// the hash of its content before ("" when it did not exist).
type pendingWrite struct {
	Files  map[string]*string `json:"files"`
	Before map[string]string  `json:"before"`
}

// testHook, when set (tests only), is called at named points of a write so a
// test can stop the process there.
var testHook func(point string)

func hookAt(point string) {
	if testHook != nil {
		testHook(point)
	}
}

func fileHash(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return contentHash(b), nil
}

func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// stored is the on-disk form of data as writeFileAtomic leaves it.
func stored(data []byte) string { return string(append(data, '\n')) }

// writePair replaces the files named in next (nil content: remove) through
// the journal.
func (s *Store) writePair(next map[string]*string) error {
	p := pendingWrite{Files: next, Before: map[string]string{}}
	for name := range next {
		h, err := fileHash(filepath.Join(s.Dir, name))
		if err != nil {
			return err
		}
		p.Before[name] = h
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(s.Dir, pendingFile, b); err != nil {
		return err
	}
	if err := s.apply(p); err != nil {
		return err
	}
	return s.dropPending()
}

// apply replaces credentials.json first, then identities.json.
func (s *Store) apply(p pendingWrite) error {
	for i, name := range []string{credentialsFile, identitiesFile} {
		content, ok := p.Files[name]
		if !ok {
			continue
		}
		if i > 0 {
			hookAt("between-writes")
		}
		if content == nil {
			if err := os.Remove(filepath.Join(s.Dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		}
		data := []byte(*content)
		if err := writeFileAtomic(s.Dir, name, data[:len(data)-1]); err != nil {
			return err
		}
	}
	return syncDir(s.Dir)
}

func (s *Store) dropPending() error {
	err := os.Remove(filepath.Join(s.Dir, pendingFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(s.Dir)
}

// readPending returns the journal when one is there and still describes the
// files: each is either as it was before or as the journal says it becomes.
func (s *Store) readPending() (*pendingWrite, bool) {
	b, err := os.ReadFile(filepath.Join(s.Dir, pendingFile))
	if err != nil {
		return nil, false
	}
	var p pendingWrite
	if json.Unmarshal(b, &p) != nil {
		return nil, false
	}
	for name, content := range p.Files {
		if name != credentialsFile && name != identitiesFile {
			return nil, false
		}
		h, err := fileHash(filepath.Join(s.Dir, name))
		if err != nil {
			return nil, false
		}
		after := ""
		if content != nil {
			after = contentHash([]byte(*content))
		}
		if h != p.Before[name] && h != after {
			return nil, false
		}
	}
	return &p, true
}

// recover finishes a journaled write a crash interrupted, or drops a stale
// journal. The caller holds the store's lock.
func (s *Store) recover() error {
	if _, err := os.Stat(filepath.Join(s.Dir, pendingFile)); err != nil {
		return nil
	}
	if p, ok := s.readPending(); ok {
		if err := s.apply(*p); err != nil {
			return err
		}
	}
	return s.dropPending()
}

// readStoreFile reads name as the store holds it: from an interrupted
// write's journal when there is one, else from disk.
func (s *Store) readStoreFile(p *pendingWrite, name string) ([]byte, error) {
	if p != nil {
		if content, ok := p.Files[name]; ok {
			if content == nil {
				return nil, &fs.PathError{Op: "open", Path: filepath.Join(s.Dir, name), Err: fs.ErrNotExist}
			}
			return []byte(*content), nil
		}
	}
	return os.ReadFile(filepath.Join(s.Dir, name))
}

// syncDir makes the renames in dir durable, in order.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // not every filesystem syncs directories; the renames stand
	return nil
}
