package auth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchSettle lets a burst of writes (a login writes two files and a
// journal) end before the login is re-read once.
const watchSettle = 200 * time.Millisecond

// watchPoll is how often a store directory that cannot be watched (it does
// not exist yet, or inotify is unavailable) is looked at instead.
const watchPoll = 10 * time.Second

// storeFileNames are the names whose change can change the login:
// ~/.hanzo's and the Rust CLI's.
var storeFileNames = []string{credentialsFile, identitiesFile, pendingFile, "credentials", "config.toml"}

// watchDirs are the directories holding the stores this session reads.
func (s *Session) watchDirs() []string {
	dirs := []string{s.store.Dir}
	if s.rust != nil {
		dirs = append(dirs, filepath.Dir(s.rust.Credentials))
		if d := filepath.Dir(s.rust.Config); d != dirs[1] {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Watch calls changed whenever a store this session reads may hold a new
// login (a login or logout in another terminal), until ctx ends. It sleeps
// on inotify (fsnotify) on the stores' directories, so an idle board is not
// woken; a directory it cannot watch yet is looked for every watchPoll and
// watched once it appears. With HANZO_TOKEN set nothing is watched.
func (s *Session) Watch(ctx context.Context, changed func()) {
	if s.envToken != "" {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.pollStores(ctx, changed)
		return
	}
	defer w.Close()
	pending := s.watchDirs()
	addWatches := func() {
		var missing []string
		for _, d := range pending {
			if w.Add(d) != nil {
				missing = append(missing, d)
			}
		}
		pending = missing
	}
	addWatches()
	var poll <-chan time.Time
	var settle *time.Timer
	fire := make(chan struct{}, 1)
	defer func() {
		if settle != nil {
			settle.Stop()
		}
	}()
	for {
		if len(pending) > 0 && poll == nil {
			poll = time.After(watchPoll)
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !slices.Contains(storeFileNames, filepath.Base(ev.Name)) {
				continue
			}
			if settle == nil {
				settle = time.AfterFunc(watchSettle, func() { fire <- struct{}{} })
			} else {
				settle.Reset(watchSettle)
			}
		case <-w.Errors:
		case <-fire:
			changed()
		case <-poll:
			poll = nil
			before := len(pending)
			addWatches()
			if len(pending) < before { // a store that just appeared may hold a login
				changed()
			}
		}
	}
}

// pollStores is the fallback without inotify: the stores' files are
// compared every watchPoll (a stat each, no reads).
func (s *Session) pollStores(ctx context.Context, changed func()) {
	last := s.storeStamp()
	t := time.NewTicker(watchPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if now := s.storeStamp(); now != last {
				last = now
				changed()
			}
		}
	}
}

// storeStamp sums up the stores' files: name, size and time of change.
func (s *Session) storeStamp() string {
	var out strings.Builder
	for _, d := range s.watchDirs() {
		for _, name := range storeFileNames {
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil {
				fmt.Fprintf(&out, "%s/%s %d %d;", d, name, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return out.String()
}
