//go:build !unix

package auth

import "io/fs"

// ownedByUser: without Unix owners, a file the user can reach is theirs.
func ownedByUser(fs.FileInfo) bool { return true }
