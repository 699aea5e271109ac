package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// loginDialog shows a login (browser or device code) running in the
// background; the board keeps updating underneath.
type loginDialog struct {
	cancel       context.CancelFunc
	ch           chan LoginPrompt
	prompt       *LoginPrompt
	done         bool
	err          error
	keys         keymap.Map
	switchesUser bool // the demo's: it switches users, there is no IAM
}

func (d *loginDialog) busy() bool { return !d.done }

// Update: back or quit cancels the login; accept closes a finished one.
func (d *loginDialog) Update(msg tea.KeyPressMsg) (action, tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Back, d.keys.Quit):
		if d.done {
			return actCancelLogin{}, nil
		}
		return actCancelLogin{status: "login cancelled"}, nil
	case key.Matches(msg, d.keys.Accept) && d.done:
		return actClose{}, nil
	}
	return actNone{}, nil
}

// loginWords is what L does, after "press L to".
func (m *Model) loginWords() string {
	if m.ident.SwitchesUser {
		return "switch the demo's user"
	}
	return "log in"
}

func (m *Model) startLogin() tea.Cmd {
	if m.identity == nil {
		m.status = statusLine{text: "log in is not available in this session", bad: true}
		return nil
	}
	if dialogOf[*loginDialog](m.dialogs) != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	ch := make(chan LoginPrompt, 1)
	m.dialogs.push(&loginDialog{cancel: cancel, ch: ch, keys: m.keys, switchesUser: m.ident.SwitchesUser})
	return tea.Batch(runLogin(ctx, m.identity, ch), waitLoginPrompt(ch), m.startSpinner())
}

// onLogin handles prompts and the end of the login; the prompt channel is
// drained one message at a time by re-issuing the wait.
func (m *Model) onLogin(msg tea.Msg) tea.Cmd {
	d := dialogOf[*loginDialog](m.dialogs)
	switch msg := msg.(type) {
	case loginPromptMsg:
		if d == nil {
			return nil
		}
		p := msg.prompt
		d.prompt = &p
		return waitLoginPrompt(d.ch)
	case loginDoneMsg:
		if msg.err != nil {
			m.status = statusLine{text: "login failed: " + oneLine(msg.err.Error()), bad: true}
			if d != nil {
				d.done, d.err = true, msg.err
			}
			return nil
		}
		if d != nil {
			m.dialogs.remove(d)
		}
		if m.identity == nil {
			return nil
		}
		if m.ident.SwitchesUser { // the status names who, once read
			return readSwitchedIdentity(m.identity)
		}
		m.status = statusLine{text: "logged in"}
		return readIdentity(m.identity)
	}
	return nil
}

// Render is the dialog box with the code and where to enter it.
func (d *loginDialog) Render(st *styles.Styles, width int, spin string) string {
	inner := max(20, min(width-6, 70))
	title := "Log in to Hanzo IAM"
	if d.switchesUser {
		title = "Switch the demo's user"
	}
	lines := []string{st.DialogTitle.Render(title), ""}
	switch {
	case d.err != nil:
		lines = append(lines, wrapText(st.ErrText.Render("✖ login failed: ")+oneLine(d.err.Error()), inner)...)
		lines = append(lines, "", st.Dim.Render(d.keys.Back.Help().Key+" close"))
	case d.prompt == nil:
		lines = append(lines, spin+" starting the login…", "", st.Dim.Render(d.keys.Back.Help().Key+" cancel"))
	case d.prompt.UserCode == "": // the browser flow (PKCE): there is no code to enter
		lines = append(lines, wrapText("Your browser should open the sign-in page. If it does not, open:", inner)...)
		lines = append(lines, wrapText(format.Safe(d.prompt.VerificationURI), inner)...)
		lines = append(lines, "", spin+" waiting for the browser…  "+st.Dim.Render(d.keys.Back.Help().Key+" cancel"))
	default:
		p := d.prompt
		lines = append(lines, "Enter this code:  "+st.Title.Render(format.Safe(p.UserCode)), "")
		lines = append(lines, wrapText("at "+format.Safe(p.VerificationURI), inner)...)
		if p.VerificationURIComplete != "" {
			lines = append(lines, wrapText("or open "+format.Safe(p.VerificationURIComplete), inner)...)
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
