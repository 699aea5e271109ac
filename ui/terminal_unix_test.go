//go:build unix

package ui

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"github.com/hanzoai/driftboard/ui/terminal"
)

// ptyScreen is the other end of a pseudo-terminal, read into an emulator.
type ptyScreen struct {
	ptmx *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	raw  strings.Builder // every byte the board wrote
}

func (p *ptyScreen) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := p.ptmx.Read(buf)
		p.mu.Lock()
		_, _ = p.emu.Write(buf[:n])
		p.raw.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (p *ptyScreen) await(t *testing.T, what string, cond func(screen string) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.mu.Lock()
		screen := p.emu.String()
		p.mu.Unlock()
		if cond(screen) {
			return
		}
		if time.Now().After(deadline) {
			p.mu.Lock()
			raw := p.raw.String()
			p.mu.Unlock()
			t.Fatalf("%s: not on screen after 10s; screen:\n%s\nraw %q", what, screen, raw[max(0, len(raw)-300):])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRunDrawsOnATerminal: the board run on a real pseudo-terminal takes it
// over (raw input, alternate screen, no cursor), draws its rows, shows a
// change to a shown row, follows a resize (SIGWINCH) and leaves the
// terminal as it found it when the user quits.
func TestRunDrawsOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	scr := &ptyScreen{ptmx: ptmx, emu: vt.NewEmulator(120, 30)}
	go scr.read()
	go func() { _, _ = io.Copy(ptmx, scr.emu) }() // the terminal's replies (unread, they block it)

	src := newStoreSource()
	rows := bigFleet(300)
	src.upsert(rows...)
	dark := true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newModel(ctx, fleetOf(src, nil), nil, Options{Now: fixedNow, DarkBackground: &dark})
	m.board.CycleSort() // by name: svc-00000 first
	done := make(chan error, 1)
	go func() {
		_, err := runProgram(ctx, m, colorprofile.TrueColor, tty, tty)
		done <- err
	}()

	scr.await(t, "the first rows", func(s string) bool { return strings.Contains(s, "svc-00000") })
	scr.mu.Lock()
	alt, hidden := scr.emu.IsAltScreen(), scr.emu.CursorHidden()
	scr.mu.Unlock()
	if !alt || !hidden {
		t.Fatalf("alternate screen %v, cursor hidden %v: want both", alt, hidden)
	}

	r := rows[0]
	r.DeclaredTag = "v7.7.7"
	src.upsert(r)
	scr.await(t, "the changed tag", func(s string) bool { return strings.Contains(s, "v7.7.7") })

	resize := func(cols, lines int) {
		t.Helper()
		if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(lines)}); err != nil {
			t.Fatal(err)
		}
		scr.mu.Lock()
		scr.emu.Resize(cols, lines)
		scr.mu.Unlock()
	}
	// The kernel signals the terminal's foreground process group, which a
	// test is not: the test's own process is signalled instead, on each
	// look at the screen (a resize is idempotent).
	winch := func() {
		if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
			t.Fatal(err)
		}
	}
	resize(50, 8)
	scr.await(t, "the size reaching the board", func(s string) bool {
		winch()
		return strings.Contains(s, "terminal too small (50x8)")
	})
	resize(120, 30)
	scr.await(t, "the rows again", func(s string) bool {
		winch()
		return strings.Contains(s, "svc-00000") && !strings.Contains(s, "too small")
	})

	if _, err := ptmx.WriteString("q"); err != nil { // raw input: no Enter needed
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the board ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not end the board")
	}
	time.Sleep(50 * time.Millisecond) // the last bytes read
	scr.mu.Lock()
	raw := scr.raw.String()
	alt, hidden = scr.emu.IsAltScreen(), scr.emu.CursorHidden()
	scr.mu.Unlock()
	if alt || hidden {
		t.Fatalf("after quitting: alternate screen %v, cursor hidden %v: want neither", alt, hidden)
	}
	if !strings.HasSuffix(raw, terminal.Leave()) {
		t.Fatalf("the board's last bytes are not the modes reset: %q", raw[max(0, len(raw)-200):])
	}
	// Cooked again: the line discipline echoes what is typed.
	if _, err := ptmx.WriteString("echo\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		scr.mu.Lock()
		echoed := strings.HasSuffix(scr.raw.String(), "echo\r\n")
		scr.mu.Unlock()
		if echoed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the terminal is not back in cooked mode: nothing echoed")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
