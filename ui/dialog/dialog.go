// Package dialog is the board's overlays as one stack: the restart
// confirmation (one app or a marked set), the login, the pickers and the
// ":" jump prompt. The top dialog has the keys and is drawn; each answers a
// key with a typed Action the root performs. No IO happens in Update: what
// a dialog reads or runs (a set restart's checks and run) goes through an
// interface it declares, in Cmds. The restart rules stay in
// internal/restart: the confirmations only ask it. A new dialog is one more
// type implementing Dialog (the shape is crush's internal/ui/dialog).
package dialog

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Dialog is one overlay over the screen. Each gets the board's keymap.Map
// when opened. Update handles a key and answers with a typed Action the
// root performs; the root never reads a dialog's fields back.
type Dialog interface {
	Update(msg tea.KeyPressMsg) (Action, tea.Cmd)
	Render(st *styles.Styles, width int, spin string) string
	Busy() bool // waiting on IO: the spinner keeps ticking
}

// Action is what a dialog asks of the root.
type Action interface{ dialogAction() }

type (
	// None: nothing for the root to do.
	None struct{}
	// Close pops the dialog; a Status replaces the status line.
	Close struct{ Status string }
	// Restart: the user confirmed the restart the dialog shows.
	Restart struct{ D *Confirm }
	// RestartSet: the user confirmed the set the dialog shows.
	RestartSet struct{ D *SetRestart }
	// PlanPromotion: plan the dialog's promotion (again: another tag).
	PlanPromotion struct{ D *Promote }
	// ProposePromotion: the user answered the promotion the dialog shows;
	// the use case decides whether the answer confirms it.
	ProposePromotion struct{ D *Promote }
	// MergePromotion, SyncPromotion: the user answered the step the dialog
	// shows; the use case decides whether it confirms and may run.
	MergePromotion struct{ D *PromoteStep }
	SyncPromotion  struct{ D *PromoteStep }
	// CancelLogin stops the login running behind the dialog and pops it.
	CancelLogin struct{ Status string }
	// From the pickers: open the restart dialog, the detail, the logs or a
	// login for the selected row. Each closes the picker first.
	OpenRestart struct{}
	OpenDetail  struct{}
	OpenLogs    struct{}
	StartLogin  struct{}
	// PickLog streams the chosen pod and container.
	PickLog struct{ Pod, Container string }
	// ApplyFilter applies a query. Jump: ':ctx', ':env' or ':ns' named
	// where to look, so the e key's env gives way; Env: the env to show, set
	// as the e key's own (':env test', then e goes on to dev).
	ApplyFilter struct {
		Query string
		Jump  bool
		Env   model.Env
	}
	// Pick replaces the dialog with this picker (":ns" alone).
	Pick struct{ P *Picker }
	// Quit ends the program (a set restart running behind it stops starting).
	Quit struct{}
)

func (None) dialogAction()             {}
func (Close) dialogAction()            {}
func (Restart) dialogAction()          {}
func (RestartSet) dialogAction()       {}
func (CancelLogin) dialogAction()      {}
func (PlanPromotion) dialogAction()    {}
func (ProposePromotion) dialogAction() {}
func (MergePromotion) dialogAction()   {}
func (SyncPromotion) dialogAction()    {}
func (OpenRestart) dialogAction()      {}
func (OpenDetail) dialogAction()       {}
func (OpenLogs) dialogAction()         {}
func (StartLogin) dialogAction()       {}
func (PickLog) dialogAction()          {}
func (ApplyFilter) dialogAction()      {}
func (Pick) dialogAction()             {}
func (Quit) dialogAction()             {}

// Stack holds the open dialogs; the top one has the keys and is drawn.
type Stack []Dialog

// Push opens d over the others.
func (s *Stack) Push(d Dialog) { *s = append(*s, d) }

// Top is the dialog with the keys, or nil.
func (s Stack) Top() Dialog {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// Remove takes d out wherever it is (a finished login under a newer dialog).
func (s *Stack) Remove(d Dialog) {
	for i, x := range *s {
		if x == d {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return
		}
	}
}

// Busy reports whether any open dialog waits on IO.
func (s Stack) Busy() bool {
	for _, d := range s {
		if d.Busy() {
			return true
		}
	}
	return false
}

// Find is the open dialog of type T nearest the top (the nil T when none),
// for the answers of Cmds that belong to one: a permission check, a login
// prompt.
func Find[T Dialog](s Stack) T {
	for i := len(s) - 1; i >= 0; i-- {
		if d, ok := s[i].(T); ok {
			return d
		}
	}
	var none T
	return none
}
