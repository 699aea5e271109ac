package e2e

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/internal/testing/hostile"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// rawSignatures are pieces of hostile.Payloads a terminal would act on; the
// bytes the board writes to the terminal hold none of them. The clear is
// matched with the payload's text before it: the renderer itself writes a
// bare clear and home when it repaints the whole screen.
var rawSignatures = []string{"v1\x1b[2J\x1b[H", "\x1b]52;c;cm0g", "\x1b]8;;https://evil", "\x1bPq#0", "\x1b_Gf=",
	"\x1b^pm", "\x1bXsos", "\x1b[8mhidden", "real\rfake", "\u009b", "\x9b2J", "\x7f", "\u202e", "\u2066", "\u200b", "\ufeff"}

// The board over a real API server holding an App with control sequences
// of every family in every free-text field: the frames View returns and the
// bytes written to the terminal (board and detail) carry none of them raw,
// and without colour the frames carry no ESC at all.
func TestHostileAppOnTheBoard(t *testing.T) {
	t.Parallel()
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	want, err := c.SeedHostileApp(ctx, "hanzo-testnet", "evil", strings.Join(hostile.Payloads, "|"))
	if err != nil {
		t.Fatal(err)
	}
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	waitBoard(t, f, 90*time.Second, "the hostile row whole", func(s *store.Snapshot) bool {
		return s.Len() == 1 && s.Rows()[0].Workload.RestartedBy == want.RestartedBy && s.Rows()[0].Org == want.Org
	})

	for _, noColor := range []bool{false, true} {
		dark := true
		m := boardOf(f, nil, func(o *ui.Options) {
			o.NoColor, o.DarkBackground, o.Now = noColor, &dark, func() time.Time { return t0 }
		})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 60))
		var written []byte
		seen := func(s string) func([]byte) bool {
			return func(b []byte) bool {
				if bytes.Contains(b, []byte(s)) {
					written = append(written, b...)
					return true
				}
				return false
			}
		}
		teatest.WaitFor(t, tm.Output(), seen("evil"), teatest.WithDuration(30*time.Second))
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		teatest.WaitFor(t, tm.Output(), seen("Conditions"), teatest.WithDuration(30*time.Second))
		if err := tm.Quit(); err != nil {
			t.Fatal(err)
		}
		final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View().Content
		rest, _ := io.ReadAll(tm.FinalOutput(t))
		written = append(written, rest...)

		if i := termtext.FirstRaw(final, !noColor); i >= 0 {
			t.Errorf("noColor=%v: the detail frame has a raw control at %d: %q", noColor, i, final[max(0, i-30):min(len(final), i+30)])
		}
		if noColor && strings.Contains(final, "\x1b") {
			t.Errorf("an ESC in a frame without colour")
		}
		for _, sig := range rawSignatures {
			if bytes.Contains(written, []byte(sig)) {
				t.Errorf("noColor=%v: the terminal received %q raw", noColor, sig)
			}
		}
		if !bytes.Contains(written, []byte(`\x1b]52;c;cm0gLXJmIH4=\x07`)) {
			t.Errorf("noColor=%v: the terminal never showed the escaped value", noColor)
		}
	}
}
