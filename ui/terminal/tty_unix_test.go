//go:build unix

package terminal

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/creack/pty"
)

// TestOpenTTYLeavesAnImplausibleTerminalAlone: a terminal reporting a size
// beyond bubbletea's bound, or none (0x0), is not taken over (no cell buffer
// that size, the terminal's modes untouched); bubbletea's own renderer gets
// it (and draws a 0x0 one at $COLUMNS×$LINES or 80×24).
func TestOpenTTYLeavesAnImplausibleTerminalAlone(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 5000, Rows: 300}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := openTTY(tty, tty, colorprofile.TrueColor, true); ok || err != nil {
		t.Fatalf("a 5000x300 terminal: taken over %v (%v)", ok, err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{}); err != nil { // a terminal that reports no size
		t.Fatal(err)
	}
	if _, ok, err := openTTY(tty, tty, colorprofile.TrueColor, true); ok || err != nil {
		t.Fatalf("a 0x0 terminal: taken over %v (%v), where nothing could be drawn", ok, err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 4096, Rows: 256}); err != nil {
		t.Fatal(err)
	}
	s, ok, err := openTTY(tty, tty, colorprofile.TrueColor, false)
	if !ok || err != nil {
		t.Fatalf("a 4096x256 terminal: taken over %v (%v)", ok, err)
	}
	s.close()
}
