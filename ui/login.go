package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// loginDialog shows a device-code login running in the background; the
// board keeps updating underneath.
type loginDialog struct {
	cancel context.CancelFunc
	ch     chan LoginPrompt
	prompt *LoginPrompt
	done   bool
	err    error
}

func (d *loginDialog) waiting() bool { return !d.done }

func (m *Model) startLogin() tea.Cmd {
	if m.identity == nil {
		m.status = statusLine{text: "log in is not available in this session", bad: true}
		return nil
	}
	if m.login != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	ch := make(chan LoginPrompt, 1)
	m.login = &loginDialog{cancel: cancel, ch: ch}
	return tea.Batch(runLogin(ctx, m.identity, ch), waitLoginPrompt(ch), m.startSpinner())
}

// onLogin handles prompts and the end of the login; the prompt channel is
// drained one message at a time by re-issuing the wait.
func (m *Model) onLogin(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loginPromptMsg:
		if m.login == nil {
			return nil
		}
		p := msg.prompt
		m.login.prompt = &p
		return waitLoginPrompt(m.login.ch)
	case loginDoneMsg:
		d := m.login
		if msg.err != nil {
			m.status = statusLine{text: "login failed: " + oneLine(msg.err.Error()), bad: true}
			if d != nil {
				d.done, d.err = true, msg.err
			}
			return nil
		}
		m.login = nil
		m.status = statusLine{text: "logged in"}
		if m.identity != nil {
			return readIdentity(m.identity)
		}
	}
	return nil
}

func (m *Model) loginKey(msg tea.KeyPressMsg) tea.Cmd {
	d := m.login
	switch msg.String() {
	case "esc", "q":
		d.cancel()
		m.login = nil
		if !d.done {
			m.status = statusLine{text: "login cancelled"}
		}
	case "enter":
		if d.done {
			m.login = nil
		}
	}
	return nil
}

// Render is the dialog box with the code and where to enter it.
func (d *loginDialog) Render(st *styles, width int, spin string) string {
	inner := max(20, min(width-6, 70))
	lines := []string{st.dialogTitle.Render("Log in to Hanzo IAM"), ""}
	switch {
	case d.err != nil:
		lines = append(lines, wrapText(st.errText.Render("✖ login failed: ")+oneLine(d.err.Error()), inner)...)
		lines = append(lines, "", st.dim.Render("esc close"))
	case d.prompt == nil:
		lines = append(lines, spin+" starting device login…", "", st.dim.Render("esc cancel"))
	default:
		p := d.prompt
		lines = append(lines, "Enter this code:  "+st.title.Render(safe(p.UserCode)), "")
		lines = append(lines, wrapText("at "+safe(p.VerificationURI), inner)...)
		if p.VerificationURIComplete != "" {
			lines = append(lines, wrapText("or open "+safe(p.VerificationURIComplete), inner)...)
		}
		if p.BrowserOpened {
			lines = append(lines, st.okText.Render("✓ opened in your browser"))
		}
		if !p.ExpiresAt.IsZero() {
			lines = append(lines, st.dim.Render("the code expires at "+p.ExpiresAt.Format("15:04:05")))
		}
		lines = append(lines, "", spin+" waiting for you to approve…  "+st.dim.Render("esc cancel"))
	}
	return st.dialog.Render(strings.Join(lines, "\n"))
}
