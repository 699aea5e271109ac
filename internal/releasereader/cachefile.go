package releasereader

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// cacheVersion changes when the file's shape does; other versions are ignored.
const cacheVersion = 3

// cacheMaxAge drops answers nobody asked about for a week.
const cacheMaxAge = 7 * 24 * time.Hour

// cacheFile is what survives a restart of the board: the answers (so a board
// opened ten times an hour asks nothing while they are younger than the
// interval) and the ETags with their bodies (so older answers are revalidated
// with If-None-Match instead of fetched again). No tokens are written.
type cacheFile struct {
	Version int                  `json:"version"`
	APIBase string               `json:"apiBase"` // answers from another GitHub are not reused
	SavedAt time.Time            `json:"savedAt"`
	Answers map[string]answer    `json:"answers"`
	ETags   map[string]etagEntry `json:"etags"`
}

// DefaultCachePath is $XDG_CACHE_HOME/driftboard/releases.json, else
// ~/.cache/driftboard/releases.json.
func DefaultCachePath(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "driftboard", "releases.json"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("release cache: no home directory: %w", err)
		}
	}
	return filepath.Join(home, ".cache", "driftboard", "releases.json"), nil
}

// readCache loads path; a missing file is an empty cache, a damaged or
// foreign one is ignored (it is only a cache) and reported.
func readCache(path, apiBase string) (cacheFile, error) {
	empty := cacheFile{Answers: map[string]answer{}, ETags: map[string]etagEntry{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return empty, nil
	}
	if err != nil {
		return empty, fmt.Errorf("read release cache: %w", err)
	}
	var c cacheFile
	if err := json.Unmarshal(data, &c); err != nil {
		return empty, fmt.Errorf("release cache %s is damaged, starting afresh: %w", path, err)
	}
	if c.Version != cacheVersion || c.APIBase != apiBase {
		return empty, nil
	}
	if c.Answers == nil {
		c.Answers = map[string]answer{}
	}
	if c.ETags == nil {
		c.ETags = map[string]etagEntry{}
	}
	for k, a := range c.Answers {
		if a.Result == resultError { // errors are retried, not remembered
			delete(c.Answers, k)
		}
	}
	return c, nil
}

// writeCache writes atomically: a temp file in the same directory, then
// rename, so a crash or a second board never leaves half a file.
func writeCache(path string, c cacheFile) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode release cache: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create release cache dir: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".releases-*.json")
	if err != nil {
		return fmt.Errorf("write release cache: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write release cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write release cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write release cache: %w", err)
	}
	return nil
}
