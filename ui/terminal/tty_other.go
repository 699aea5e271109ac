//go:build !unix

package terminal

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Options say which terminal Run takes over and how.
type Options struct {
	Profile       colorprofile.Profile
	In, Out       *os.File
	AskBackground bool
	Taken         func(setClipboard func(text string))
}

// Run: only Unix terminals are drawn by a ttyScreen (it follows SIGWINCH
// and Unix raw mode); elsewhere nothing is run and bubbletea's renderer
// draws.
func Run(context.Context, tea.Model, Options) (tea.Model, bool, error) {
	return nil, false, nil
}
