package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

// dialog is one overlay over the screen: the restart confirmation, the
// login and the pickers. Each gets the board's keymap.Map when opened. Update
// handles a key and answers with a typed action the root performs; the root
// never reads a dialog's fields back. The shape is crush's internal/ui/dialog.
type dialog interface {
	Update(msg tea.KeyPressMsg) (action, tea.Cmd)
	Render(st *styles.Styles, width int, spin string) string
	busy() bool // waiting on IO: the spinner keeps ticking
}

// action is what a dialog asks of the root.
type action interface{ isAction() }

type (
	actNone  struct{}
	actClose struct{ status string } // pop the dialog; a status replaces the status line
	// actRestart: the user confirmed the restart the dialog shows.
	actRestart struct{ d *confirmDialog }
	// actCancelLogin: stop the login running behind the dialog and pop it.
	actCancelLogin struct{ status string }
	// From the pickers: open the restart dialog, the detail, a login, or
	// apply a saved filter. Each closes the picker first.
	actOpenRestart struct{}
	actOpenDetail  struct{}
	actStartLogin  struct{}
	// actApplyFilter applies a query. jump: ':ctx', ':env' or ':ns' named
	// where to look, so the e key's env gives way; env: the env to show, set
	// as the e key's own (':env test', then e goes on to dev).
	actApplyFilter struct {
		query string
		jump  bool
		env   model.Env
	}
	// actPick: replace the dialog with this picker (":ns" alone).
	actPick struct{ p *picker }
	// actQuit: end the program (a set restart running behind it stops starting).
	actQuit struct{}
)

func (actNone) isAction()        {}
func (actClose) isAction()       {}
func (actRestart) isAction()     {}
func (actCancelLogin) isAction() {}
func (actOpenRestart) isAction() {}
func (actOpenDetail) isAction()  {}
func (actStartLogin) isAction()  {}
func (actApplyFilter) isAction() {}
func (actPick) isAction()        {}
func (actQuit) isAction()        {}

// dialogStack holds the open dialogs; the top one has the keys and is drawn.
type dialogStack []dialog

func (s *dialogStack) push(d dialog) { *s = append(*s, d) }

func (s dialogStack) top() dialog {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// remove takes d out wherever it is (a finished login under a newer dialog).
func (s *dialogStack) remove(d dialog) {
	for i, x := range *s {
		if x == d {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return
		}
	}
}

func (s dialogStack) busy() bool {
	for _, d := range s {
		if d.busy() {
			return true
		}
	}
	return false
}

// dialogOf is the open dialog of type T (the nil T when none), for the
// answers of Cmds that belong to one: a permission check, a login prompt.
func dialogOf[T dialog](s dialogStack) T {
	for i := len(s) - 1; i >= 0; i-- {
		if d, ok := s[i].(T); ok {
			return d
		}
	}
	var none T
	return none
}
