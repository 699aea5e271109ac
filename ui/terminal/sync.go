//go:build unix

package terminal

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// asksForSyncedOutput is bubbletea v2.1.1's rule for asking the terminal
// whether it holds a frame until it is complete (mode 2026): not over SSH
// or in Apple's Terminal, where the reply is unreliable, unless the
// terminal is one known to answer.
func asksForSyncedOutput(env []string) bool {
	e := uv.Environ(env)
	termType := e.Getenv("TERM")
	termProg, hasTermProg := e.LookupEnv("TERM_PROGRAM")
	_, overSSH := e.LookupEnv("SSH_TTY")
	_, windowsTerminal := e.LookupEnv("WT_SESSION")
	if windowsTerminal || !overSSH && (!hasTermProg || !strings.Contains(termProg, "Apple")) {
		return true
	}
	for _, known := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(termType, known) {
			return true
		}
	}
	return false
}

// followSyncReply turns synchronized output on when the terminal reports
// mode 2026 supported and off (as bubbletea's renderer does).
func (t *ttyScreen) followSyncReply(msg tea.ModeReportMsg) {
	if msg.Mode == ansi.ModeSynchronizedOutput && msg.Value == ansi.ModeReset {
		t.synced = true
	}
}

// framed is b held by the terminal until complete, where it can.
func (t *ttyScreen) framed(b []byte) []byte {
	if !t.synced {
		return b
	}
	t.syncBuf = append(append(append(t.syncBuf[:0], ansi.SetModeSynchronizedOutput...), b...), ansi.ResetModeSynchronizedOutput...)
	return t.syncBuf
}
