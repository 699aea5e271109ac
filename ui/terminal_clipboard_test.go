//go:build unix

package ui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// TestCopyOnATerminalReachesTheClipboardAtOnce: on a terminal the board
// draws itself, `c` writes the OSC 52 sequence before the frame that says
// "copied", not on bubbletea's next output tick (a second later, after the
// confirmation, or never when the user quits first).
func TestCopyOnATerminalReachesTheClipboardAtOnce(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 160, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	scr := &ptyScreen{ptmx: ptmx, emu: vt.NewEmulator(160, 30)}
	go scr.read()
	go func() { _, _ = io.Copy(ptmx, scr.emu) }()

	src := newStoreSource()
	rows := bigFleet(20)
	src.upsert(rows...)
	dark := true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newModel(ctx, src, nil, nil, Options{Now: fixedNow, DarkBackground: &dark})
	m.board.cycleSort() // by name: svc-00000 first, selected
	done := make(chan error, 1)
	go func() {
		_, err := runProgram(ctx, m, colorprofile.TrueColor, tty, tty)
		done <- err
	}()
	scr.await(t, "the first rows", func(s string) bool { return strings.Contains(s, "svc-00000") })

	want := imageRef(&rows[0])
	if _, err := ptmx.WriteString("c"); err != nil {
		t.Fatal(err)
	}
	scr.await(t, "the confirmation", func(s string) bool { return strings.Contains(s, "copied "+want) })
	scr.mu.Lock()
	raw := scr.raw.String()
	scr.mu.Unlock()
	seq, confirmed := strings.Index(raw, ansi.SetSystemClipboard(want)), strings.LastIndex(raw, "copied")
	if seq < 0 || seq > confirmed {
		t.Fatalf("OSC 52 for %q at byte %d, the confirmation at %d: want the clipboard set first", want, seq, confirmed)
	}

	if _, err := ptmx.WriteString("q"); err != nil {
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
}
