package auth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// writeTarget is the file a write of name in dir replaces: dir/name, or the
// target of a symlink there when that target is a regular file of this user
// inside dir (a login kept in a subdirectory of the store). Any other link
// is refused: whoever planted it (the directory was open to others, or is
// still) would have the next login overwrite any file the user can write.
func writeTarget(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return p, nil // absent, or a file the rename replaces (never writes into)
	}
	refuse := func(target, why string) error {
		return newError(ErrStoreUnsafe, fmt.Sprintf("%s is a symlink to %s, %s; nothing is written through it: "+
			"remove the link (a login may be kept in a file of yours inside %s)", p, target, why, dir), nil)
	}
	link, _ := os.Readlink(p)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("check %s: %w", dir, err)
	}
	target, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", refuse(link, "which does not exist")
	} else if err != nil {
		return "", refuse(link, "which cannot be resolved ("+err.Error()+")")
	}
	if rel, err := filepath.Rel(realDir, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", refuse(target, "outside "+realDir)
	}
	tfi, err := os.Lstat(target)
	switch {
	case err != nil:
		return "", refuse(target, "which cannot be read ("+err.Error()+")")
	case !tfi.Mode().IsRegular():
		return "", refuse(target, "which is not a regular file")
	case !ownedByUser(tfi):
		return "", refuse(target, "which belongs to another user")
	}
	return target, nil
}

// checkTargets refuses, before anything is spent (a login's browser flow, a
// single-use refresh token), a store whose files could not be written.
func checkTargets(dir string, names ...string) error {
	for _, n := range names {
		if _, err := writeTarget(dir, n); err != nil {
			return err
		}
	}
	return nil
}

// tightenDir makes dir private (0700) when it exists with a looser mode;
// the notice says what changed ("" when nothing did).
func tightenDir(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("check %s: %w", dir, err)
	}
	if mode := fi.Mode().Perm(); mode&^0o700 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("%s is open to others (mode %#o) and could not be tightened: %w", dir, mode, err)
		}
		return fmt.Sprintf("%s was open to others (mode %#o); tightened to 0700", dir, mode), nil
	}
	return "", nil
}
