package dialog

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// LoginPrompt is what the user must do to finish a device-code login.
type LoginPrompt struct {
	UserCode                string
	VerificationURI         string
	VerificationURIComplete string
	ExpiresAt               time.Time
	BrowserOpened           bool
}

// Login shows a login (browser or device code) running in the
// background; the board keeps updating underneath.
type Login struct {
	cancel       context.CancelFunc
	prompt       *LoginPrompt
	done         bool
	err          error
	keys         keymap.Map
	switchesUser bool // the demo's: it switches users, there is no IAM
}

// NewLogin shows a login starting; cancel stops it. switchesUser: the
// demo's, which switches users (there is no IAM).
func NewLogin(cancel context.CancelFunc, switchesUser bool, keys keymap.Map) *Login {
	return &Login{cancel: cancel, switchesUser: switchesUser, keys: keys}
}

// Cancel stops the login running behind the dialog.
func (d *Login) Cancel() { d.cancel() }

// Prompted shows what the person must do to finish the login.
func (d *Login) Prompted(p LoginPrompt) { d.prompt = &p }

// Failed shows why the login ended without one.
func (d *Login) Failed(err error) { d.done, d.err = true, err }

// Busy: the login is under way.
func (d *Login) Busy() bool { return !d.done }

// Update: back or quit cancels the login; accept closes a finished one.
func (d *Login) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Back, d.keys.Quit):
		if d.done {
			return CancelLogin{}, nil
		}
		return CancelLogin{Status: "login cancelled"}, nil
	case key.Matches(msg, d.keys.Accept) && d.done:
		return Close{}, nil
	}
	return None{}, nil
}

// Render is the dialog box with the code and where to enter it.
func (d *Login) Render(st *styles.Styles, width int, spin string) string {
	inner := max(20, min(width-6, 70))
	title := "Log in to Hanzo IAM"
	if d.switchesUser {
		title = "Switch the demo's user"
	}
	lines := []string{st.DialogTitle.Render(title), ""}
	switch {
	case d.err != nil:
		lines = append(lines, format.Wrap(st.ErrText.Render("✖ login failed: ")+format.OneLine(d.err.Error()), inner)...)
		lines = append(lines, "", st.Dim.Render(d.keys.Back.Help().Key+" close"))
	case d.prompt == nil:
		lines = append(lines, spin+" starting the login…", "", st.Dim.Render(d.keys.Back.Help().Key+" cancel"))
	case d.prompt.UserCode == "": // the browser flow (PKCE): there is no code to enter
		lines = append(lines, format.Wrap("Your browser should open the sign-in page. If it does not, open:", inner)...)
		lines = append(lines, format.Wrap(format.Safe(d.prompt.VerificationURI), inner)...)
		lines = append(lines, "", spin+" waiting for the browser…  "+st.Dim.Render(d.keys.Back.Help().Key+" cancel"))
	default:
		p := d.prompt
		lines = append(lines, "Enter this code:  "+st.Title.Render(format.Safe(p.UserCode)), "")
		lines = append(lines, format.Wrap("at "+format.Safe(p.VerificationURI), inner)...)
		if p.VerificationURIComplete != "" {
			lines = append(lines, format.Wrap("or open "+format.Safe(p.VerificationURIComplete), inner)...)
		}
		if p.BrowserOpened {
			lines = append(lines, st.OkText.Render("✓ opened in your browser"))
		}
		if !p.ExpiresAt.IsZero() {
			lines = append(lines, st.Dim.Render("the code expires at "+p.ExpiresAt.Format("15:04:05")))
		}
		lines = append(lines, "", spin+" waiting for you to approve…  "+st.Dim.Render(d.keys.Back.Help().Key+" cancel"))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
