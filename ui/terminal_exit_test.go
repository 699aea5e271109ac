//go:build unix

package ui

import (
	"context"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/terminal"
)

// runOnPTY runs the board made by newBoard on a pseudo-terminal whose
// emulator answers queries as a terminal does (mode 2026, synchronized
// output, supported and off); tty is the end the board (and, after it, a
// shell) uses.
func runOnPTY(t *testing.T, newBoard func(ctx context.Context) *Model) (scr *ptyScreen, tty *os.File, done <-chan error) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	scr = &ptyScreen{ptmx: ptmx, emu: vt.NewEmulator(120, 30)}
	_, _ = scr.emu.WriteString(ansi.ResetModeSynchronizedOutput) // known, hence reported
	go scr.read()
	go func() { _, _ = io.Copy(ptmx, scr.emu) }() // the terminal's replies
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newBoard(ctx)
	errs := make(chan error, 1)
	go func() {
		_, err := runProgram(ctx, m, colorprofile.TrueColor, tty, tty)
		errs <- err
	}()
	scr.await(t, "the first rows", func(s string) bool { return strings.Contains(s, "svc-") })
	return scr, tty, errs
}

func awaitEnd(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the board did not end")
		return nil
	}
}

// TestRunLeavesNoReplyForTheShell: quitting at once, before bubbletea's
// first 1 Hz flush, leaves no terminal reply (the background colour's) in
// the input the shell reads next.
func TestRunLeavesNoReplyForTheShell(t *testing.T) {
	src := newStoreSource()
	src.upsert(bigFleet(50)...)
	scr, tty, done := runOnPTY(t, func(ctx context.Context) *Model {
		return newModel(ctx, fleetOf(src, nil), nil, Options{Now: fixedNow}) // background: ask the terminal
	})
	if _, err := scr.ptmx.WriteString("q"); err != nil {
		t.Fatal(err)
	}
	if err := awaitEnd(t, done); err != nil {
		t.Fatalf("the board ended with %v", err)
	}
	time.Sleep(200 * time.Millisecond) // any late reply arrives
	if _, err := scr.ptmx.WriteString("ls\n"); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		buf := make([]byte, 256)
		n, _ := tty.Read(buf) // cooked: one line, as the shell reads it
		line <- string(buf[:n])
	}()
	select {
	case got := <-line:
		if got != "ls\n" {
			t.Fatalf("the shell reads %q after the board, want %q", got, "ls\n")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the shell reads nothing: the terminal is not back in cooked mode")
	}
}

// panickySource panics in Snapshot once boom is set: in a Cmd, which
// bubbletea runs and recovers in its own goroutine.
type panickySource struct {
	*storeSource
	boom *atomic.Bool
}

func (s panickySource) Snapshot() *store.Snapshot {
	if s.boom.Load() {
		panic("boom in Snapshot")
	}
	return s.storeSource.Snapshot()
}

// TestRunShowsAPanicAfterGivingTheTerminalBack: bubbletea prints a panic it
// recovers on stderr; the board leaves the alternate screen before that, so
// the panic stays on the user's screen, and draws nothing after it. Once in
// the event loop (the clock, in View) and once in a Cmd (the snapshot).
func TestRunShowsAPanicAfterGivingTheTerminalBack(t *testing.T) {
	for _, where := range []string{"event loop", "Cmd"} {
		t.Run(where, func(t *testing.T) {
			var boom atomic.Bool
			dark := true
			src := newStoreSource()
			src.upsert(bigFleet(50)...)
			opts := Options{DarkBackground: &dark, Now: func() time.Time {
				if where == "event loop" && boom.Load() {
					panic("boom in Now")
				}
				return t0
			}}
			stderr := os.Stderr
			t.Cleanup(func() { os.Stderr = stderr })
			var tty *os.File
			scr, tty, done := runOnPTY(t, func(ctx context.Context) *Model {
				return newModel(ctx, fleetOf(panickySource{src, &boom}, nil), nil, opts)
			})
			os.Stderr = tty // where bubbletea prints the panic
			boom.Store(true)
			src.upsert(bigFleet(51)...)
			if _, err := scr.ptmx.WriteString("j"); err != nil {
				t.Fatal(err)
			}
			if err := awaitEnd(t, done); err == nil {
				t.Fatal("the board ended without an error after a panic")
			}
			// A Cmd's panic is printed after Run returns (bubbletea shuts
			// down first, in that goroutine): stderr stays on the pty till then.
			scr.await(t, "the panic", func(s string) bool { return strings.Contains(s, "goroutine") })
			os.Stderr = stderr
			scr.mu.Lock()
			alt, raw := scr.emu.IsAltScreen(), scr.raw.String()
			scr.mu.Unlock()
			left := strings.Index(raw, terminal.Leave())
			if alt || left < 0 {
				t.Fatalf("after the panic: alternate screen %v, the modes reset at %d", alt, left)
			}
			if after := raw[left:]; !strings.Contains(after, "Caught panic") || !strings.Contains(after, "boom in") ||
				strings.Contains(after, "svc-") {
				t.Fatalf("after the terminal was given back: want the panic and no board row, got %q", after[:min(len(after), 400)])
			}
		})
	}
}
