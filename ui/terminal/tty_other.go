//go:build !unix

package ui

import (
	"context"
	"os"

	"github.com/charmbracelet/colorprofile"
)

// runOnTTY: only Unix terminals are drawn by a ttyScreen (it follows
// SIGWINCH and Unix raw mode); elsewhere bubbletea's renderer draws.
func runOnTTY(context.Context, *Model, colorprofile.Profile, *os.File, *os.File) (*Model, bool, error) {
	return nil, false, nil
}
