package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/dialog"
)

func TestLoginFromInsideTheBoard(t *testing.T) {
	id := orgAdmin()
	id.state.Expiry = t0.Add(-time.Minute)
	id.prompt = LoginPrompt{UserCode: "WDJB-MJHT", VerificationURI: "https://hanzo.id/device", ExpiresAt: t0.Add(15 * time.Minute), BrowserOpened: true}
	m, src := newTestModel(t, allowed(), id, Options{}, 100, 30)
	if v := plainView(m); !strings.Contains(v, "session expired") || !strings.Contains(v, "L to log in") {
		t.Fatalf("expired session not reported:\n%s", v)
	}
	l := newLoop(t, m)
	_, cmd := m.Update(keyMsg("L"))
	if dialog.Find[*dialog.Login](m.dialogs) == nil {
		t.Fatal("L opens no login dialog")
	}
	l.spawn(cmd)
	l.until(func(msg tea.Msg) bool { _, ok := msg.(loginPromptMsg); return ok })
	v := dialogText(m)
	for _, want := range []string{"WDJB-MJHT", "https://hanzo.id/device", "opened in your browser"} {
		if !strings.Contains(v, want) {
			t.Errorf("login dialog lacks %q: %s", want, v)
		}
	}
	// The board keeps running under the dialog.
	src.upsert(app{ns: "hanzo", name: "zzz", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build())
	m.Update(snapshotMsg{src.Snapshot()})
	if len(m.board.AllRows()) != len(fleet())+1 {
		t.Fatalf("board did not update under the dialog: %d rows", len(m.board.AllRows()))
	}
	// Approve: the identity is fresh again and re-read.
	id.state.Expiry = t0.Add(time.Hour)
	id.login <- nil
	l.until(func(msg tea.Msg) bool { _, ok := msg.(identityMsg); return ok })
	if dialog.Find[*dialog.Login](m.dialogs) != nil {
		t.Fatal("login dialog still open after success")
	}
	if v := plainView(m); !strings.Contains(v, "alice") || !strings.Contains(v, "token 60m left") { // kubectl's age style
		t.Fatalf("fresh identity not shown:\n%s", v)
	}
}

func TestLoginFailureShownAndClosable(t *testing.T) {
	id := orgAdmin()
	id.state.Principal = nil
	m, _ := newTestModel(t, nil, id, Options{}, 100, 30)
	m.Update(keyMsg("L"))
	m.Update(loginDoneMsg{err: errors.New("device code expired")})
	if dialog.Find[*dialog.Login](m.dialogs) == nil || !strings.Contains(dialogText(m), "device code expired") {
		t.Fatalf("login failure not shown: %s", dialogText(m))
	}
	m.Update(keyMsg("esc"))
	if dialog.Find[*dialog.Login](m.dialogs) != nil {
		t.Fatal("esc does not close the login dialog")
	}
}

// The browser flow (PKCE) has no code to type: the dialog says where the
// browser went instead of "Enter this code:" with nothing after it.
func TestLoginDialogBrowserFlowAsksForNoCode(t *testing.T) {
	id := orgAdmin()
	const authURL = "https://hanzo.id/login/oauth/authorize?client_id=hanzo-cli&code_challenge=abc&state=xyz"
	id.prompt = LoginPrompt{VerificationURI: authURL, BrowserOpened: true}
	m, _ := newTestModel(t, allowed(), id, Options{}, 120, 30)
	l := newLoop(t, m)
	_, cmd := m.Update(keyMsg("L"))
	l.spawn(cmd)
	l.until(func(msg tea.Msg) bool { _, ok := msg.(loginPromptMsg); return ok })
	v := dialogText(m)
	if strings.Contains(v, "Enter this code") {
		t.Errorf("the browser flow's dialog asks for a code: %s", v)
	}
	for _, want := range []string{"browser should open", "code_challenge=abc"} {
		if !strings.Contains(v, want) {
			t.Errorf("login dialog lacks %q: %s", want, v)
		}
	}
	id.login <- errors.New("stop")
}
