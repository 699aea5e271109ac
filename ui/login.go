package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/format"
)

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
	if dialog.Find[*dialog.Login](m.dialogs) != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	ch := make(chan LoginPrompt, 1)
	m.dialogs.Push(dialog.NewLogin(cancel, m.ident.SwitchesUser, m.keys))
	return tea.Batch(runLogin(ctx, m.identity, ch), waitLoginPrompt(ch), m.startSpinner())
}

// onLogin handles prompts and the end of the login; the prompt channel is
// drained one message at a time by re-issuing the wait.
func (m *Model) onLogin(msg tea.Msg) tea.Cmd {
	d := dialog.Find[*dialog.Login](m.dialogs)
	switch msg := msg.(type) {
	case loginPromptMsg:
		if d == nil {
			return nil
		}
		d.Prompted(msg.prompt)
		return waitLoginPrompt(msg.ch)
	case loginDoneMsg:
		if msg.err != nil {
			m.status = statusLine{text: "login failed: " + format.OneLine(msg.err.Error()), bad: true}
			if d != nil {
				d.Failed(msg.err)
			}
			return nil
		}
		if d != nil {
			m.dialogs.Remove(d)
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
