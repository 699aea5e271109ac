//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// TestStopSignalsGiveTheTerminalBack runs the built board (its demo fleet)
// on a real pseudo-terminal and ends it with each signal that may reach it
// while the terminal lives on: it must leave the alternate screen and raw
// mode, not die with the terminal still taken.
func TestStopSignalsGiveTheTerminalBack(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "driftboard")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(bin, "demo")
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home,
				"XDG_STATE_HOME="+home, "TERM=xterm-256color")
			// The test keeps the terminal's other end open, as a shell would,
			// so that its modes can be checked once the board has gone.
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Fatalf("open a pseudo-terminal: %v", err)
			}
			defer ptmx.Close()
			defer tty.Close()
			if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 30}); err != nil {
				t.Fatal(err)
			}
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
			if err := cmd.Start(); err != nil {
				t.Fatalf("start the board: %v", err)
			}
			var mu sync.Mutex
			var out strings.Builder
			go func() {
				buf := make([]byte, 32<<10)
				for {
					n, err := ptmx.Read(buf)
					mu.Lock()
					out.Write(buf[:n])
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			written := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
			waitUntil(t, "the board on screen", func() bool { return strings.Contains(written(), "driftboard") })
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%v did not end the board", sig)
			}
			time.Sleep(50 * time.Millisecond) // the last bytes read
			if raw := written(); !strings.Contains(raw[strings.LastIndex(raw, ansi.SetModeAltScreenSaveCursor):], ansi.ResetModeAltScreenSaveCursor) {
				t.Fatalf("after %v the board did not leave the alternate screen; its last bytes: %q", sig, raw[max(0, len(raw)-200):])
			}
			// Cooked again: the line discipline echoes what is typed.
			if _, err := ptmx.WriteString("echo\n"); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the typed line echoed (cooked mode)", func() bool { return strings.HasSuffix(written(), "echo\r\n") })
		})
	}
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen after 20s", what)
		}
	}
}
