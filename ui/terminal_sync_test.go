//go:build unix

package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestRunHoldsEachFrameUntilComplete: on a terminal that reports mode 2026
// (synchronized output), each frame is written between its set and reset,
// as bubbletea's renderer does, so the terminal never shows half a frame.
func TestRunHoldsEachFrameUntilComplete(t *testing.T) {
	for _, v := range []string{"SSH_TTY", "TERM_PROGRAM"} { // asked, by bubbletea's rule
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	dark := true
	src := newStoreSource()
	rows := bigFleet(50)
	src.upsert(rows...)
	scr, _, _ := runOnPTY(t, func(ctx context.Context) *Model {
		m := newModel(ctx, fleetOf(src, nil), nil, Options{Now: fixedNow, DarkBackground: &dark})
		m.board.CycleSort() // by name: svc-00000 first
		return m
	})
	r := rows[0]
	r.DeclaredTag = "v7.7.7"
	src.upsert(r)
	var raw string
	scr.await(t, "the changed tag, its frame complete", func(s string) bool {
		scr.mu.Lock()
		raw = scr.raw.String()
		scr.mu.Unlock()
		return strings.Contains(s, "v7.7.7") && strings.HasSuffix(raw, ansi.ResetModeSynchronizedOutput)
	})
	// Frames drawn before the terminal's reply arrived are not held; every
	// one after it is, and nothing is written between them.
	first := strings.Index(raw, ansi.SetModeSynchronizedOutput)
	if first < 0 {
		t.Fatalf("no frame held between mode 2026 set and reset: %q", raw[max(0, len(raw)-300):])
	}
	for _, frame := range strings.Split(raw[first:], ansi.SetModeSynchronizedOutput)[1:] {
		if strings.Index(frame, ansi.ResetModeSynchronizedOutput) != len(frame)-len(ansi.ResetModeSynchronizedOutput) {
			t.Fatalf("a frame not held whole: %q", frame[:min(len(frame), 300)])
		}
	}
}
