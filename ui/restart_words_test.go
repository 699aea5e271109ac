package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// Not logged in (no principal, a login available): the dialog says so in
// words, never "as (nobody)", and the L it names starts the login from
// inside the dialog.
func TestRestartDialogLIsTheLoginItNames(t *testing.T) {
	id := orgAdmin()
	id.state.Principal = nil
	m, _ := newTestModel(t, allowed(), id, Options{}, 120, 30)
	selectApp(t, m, "explorer")
	m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	v := dialogText(m)
	if strings.Contains(v, "nobody") || !strings.Contains(v, "(env test), not logged in") || !strings.Contains(v, "press L to log in") {
		t.Errorf("dialog without an identity = %q, want it not logged in in words, and L named", v)
	}
	m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	if dialog.Find[*dialog.Confirm](m.dialogs) != nil || dialog.Find[*dialog.Login](m.dialogs) == nil {
		t.Fatalf("L in the restart dialog does not start the login it names: %q", dialogText(m))
	}
}

// An expired session: the same L in the refused dialog logs in again.
func TestRestartDialogLLogsInAgainWhenExpired(t *testing.T) {
	id := orgAdmin()
	id.state.Expiry = t0.Add(-time.Minute)
	m, _ := newTestModel(t, allowed(), id, Options{}, 120, 30)
	selectApp(t, m, "explorer")
	m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if v := dialogText(m); !strings.Contains(v, "as alice") || !strings.Contains(v, "press L to log in") {
		t.Fatalf("expired dialog = %q", v)
	}
	m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	if dialog.Find[*dialog.Login](m.dialogs) == nil {
		t.Fatal("L in the refused restart dialog starts no login")
	}
}

// Declining a restart (n, esc, or enter's default No; esc on production's
// typed name) leaves a status line that says so.
func TestDecliningARestartSaysSo(t *testing.T) {
	for _, c := range []struct {
		app string
		key tea.KeyPressMsg
	}{
		{"explorer", tea.KeyPressMsg{Code: 'n', Text: "n"}},
		{"explorer", tea.KeyPressMsg{Code: tea.KeyEscape}},
		{"explorer", tea.KeyPressMsg{Code: tea.KeyEnter}},
		{"kms", tea.KeyPressMsg{Code: tea.KeyEscape}}, // production: the typed name
	} {
		m, _ := newTestModel(t, allowed(), orgAdmin(), Options{}, 120, 30)
		selectApp(t, m, c.app)
		press(m, "r")
		if d := dialog.Find[*dialog.Confirm](m.dialogs); d == nil || d.Phase() != dialog.ConfirmAsk {
			t.Fatalf("%s: no restart asked", c.app)
		}
		m.Update(c.key)
		if dialog.Find[*dialog.Confirm](m.dialogs) != nil {
			t.Fatalf("%s: %s leaves the dialog open", c.app, c.key)
		}
		want := "restart of " + map[string]string{"explorer": "hanzo-testnet/explorer", "kms": "hanzo/kms"}[c.app] + " declined"
		if m.status.text != want {
			t.Errorf("%s after %s: status %q, want %q", c.app, c.key, m.status.text, want)
		}
	}
	// A refused dialog offered nothing: closing it declines nothing.
	m, _ := newTestModel(t, allowed(), orgAdmin(), Options{ReadOnly: true}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "r", "esc")
	if strings.Contains(m.status.text, "declined") {
		t.Errorf("closing a refused dialog says %q", m.status.text)
	}
}

// The demo's identity switches between its users: L's help, the header's
// hint, the action menu and the status after it say so, not "log in".
func TestDemoLSwitchesTheDemosUser(t *testing.T) {
	id := orgAdmin()
	m, _ := newTestModel(t, allowed(), id, Options{}, 200, 40)
	id.state.SwitchesUser = true // read, as in the program, after the first frame
	m.Update(identityMsg{id.Current()})
	if v := plainView(m); !strings.Contains(v, "L switch user") {
		t.Errorf("the short help does not say L switches the user:\n%s", v)
	}
	press(m, "?")
	if v := plainView(m); !strings.Contains(v, "switch the demo's user") || strings.Contains(v, "log in again") {
		t.Errorf("help does not say L switches the demo's user:\n%s", v)
	}
	press(m, "esc")
	l := newLoop(t, m)
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	if v := dialogText(m); !strings.Contains(v, "Switch the demo's user") {
		t.Errorf("dialog = %q", v)
	}
	l.spawn(cmd)
	p := id.state.Principal
	p.User = "dana@acme.dev"
	id.login <- nil
	l.until(func(msg tea.Msg) bool { _, ok := msg.(switchedMsg); return ok })
	if m.status.text != "switched the demo's user to dana@acme.dev" {
		t.Errorf("status after L = %q", m.status.text)
	}
}

// The set restart's dialog says it too, in words.
func TestSetRestartDialogNotLoggedInInWords(t *testing.T) {
	id := orgAdmin()
	id.state.Principal = nil
	m, _ := newTestModel(t, allowed(), id, Options{}, 120, 40)
	selectApp(t, m, "explorer")
	press(m, "space", "R")
	d := dialog.Find[*dialog.SetRestart](m.dialogs)
	if d == nil {
		t.Fatal("R opens no set restart dialog")
	}
	v := ansi.Strip(d.Render(&m.st, m.width, ""))
	if strings.Contains(v, "nobody") || !strings.Contains(v, "not logged in") {
		t.Errorf("set restart without an identity:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	if dialog.Find[*dialog.SetRestart](m.dialogs) != nil || dialog.Find[*dialog.Login](m.dialogs) == nil {
		t.Error("L in a set restart with nothing to restart does not start the login it names")
	}
}
