//go:build unix

package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCopyOnATerminalReachesTheClipboardAtOnce: on a terminal the board
// draws itself, `c` writes the OSC 52 sequence before the frame that says
// "copied", not on bubbletea's next output tick (a second later, after the
// confirmation, or never when the user quits first).
func TestCopyOnATerminalReachesTheClipboardAtOnce(t *testing.T) {
	rows := bigFleet(20)
	dark := true
	scr, _, done := runOnPTY(t, func(ctx context.Context) *Model {
		src := newStoreSource()
		src.upsert(rows...)
		m := newModel(ctx, fleetOf(src, nil), nil, Options{Now: fixedNow, DarkBackground: &dark})
		m.board.CycleSort() // by name: svc-00000 first, selected
		return m
	})

	want, _ := imageRef(&rows[0])
	if _, err := scr.ptmx.WriteString("c"); err != nil {
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

	if _, err := scr.ptmx.WriteString("q"); err != nil {
		t.Fatal(err)
	}
	if err := awaitEnd(t, done); err != nil {
		t.Fatalf("the board ended with %v", err)
	}
}
