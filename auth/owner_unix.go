//go:build unix

package auth

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether fi belongs to the user running this process.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
