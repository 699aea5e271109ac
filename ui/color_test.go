package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

// colourSGR matches any foreground or background colour sequence
// (16-colour, 256-colour or true colour).
func hasColour(s string) bool {
	for _, p := range []string{"\x1b[3", "\x1b[4", "\x1b[9", "\x1b[10", ";3", ";4", ";9"} {
		for i := 0; ; {
			j := strings.Index(s[i:], p)
			if j < 0 {
				break
			}
			// ";4" etc. only counts inside an SGR; cheap check: followed by a digit.
			k := i + j + len(p)
			if k < len(s) && s[k] >= '0' && s[k] <= '9' {
				return true
			}
			i = k
		}
	}
	return false
}

func TestSeverityColoursApplied(t *testing.T) {
	for _, dark := range []bool{true, false} {
		m := goldenModel(t, 120, dark, Options{})
		press(m, "j") // move the cursor off the first (red) row
		v := m.View().Content
		st := styles.New(dark, false)
		red := st.Sev[model.MarkRed].Pre + "✖ red"
		yellow := st.Sev[model.MarkYellow].Pre + "▲ yellow"
		ok := st.Sev[model.MarkOK].Pre + "✓ ok"
		for _, want := range []string{red, yellow, ok} {
			if !hasColour(want) {
				t.Fatalf("dark=%v: style prefix has no colour: %q", dark, want)
			}
			if !strings.Contains(v, want) {
				t.Errorf("dark=%v: frame lacks coloured %q", dark, ansiStripQuote(want))
			}
		}
		if styles.New(true, false).Sev[model.MarkRed].Pre == styles.New(false, false).Sev[model.MarkRed].Pre {
			t.Error("red is the same on light and dark backgrounds")
		}
	}
}

func TestNoColour(t *testing.T) {
	check := func(t *testing.T, m *Model) {
		t.Helper()
		v := m.View().Content
		if hasColour(v) {
			t.Fatalf("colour sequences with colour off:\n%q", v)
		}
		plain := plainView(m)
		for _, want := range []string{"✖ red", "▲ yellow", "✓ ok", "offline"} {
			if !strings.Contains(plain, want) {
				t.Errorf("glyph+word %q missing without colour", want)
			}
		}
	}
	t.Run("option", func(t *testing.T) {
		check(t, goldenModel(t, 120, true, Options{NoColor: true}))
	})
	t.Run("NO_COLOR profile", func(t *testing.T) {
		// What bubbletea reports when NO_COLOR or TERM=dumb is set.
		env := []string{"NO_COLOR=1", "TERM=xterm-256color"}
		p := colorprofile.Env(env)
		if p > colorprofile.ASCII {
			t.Fatalf("colorprofile.Env(%v) = %v, want ≤ Ascii", env, p)
		}
		m := goldenModel(t, 120, true, Options{})
		if !hasColour(m.View().Content) {
			t.Fatal("colour expected before the profile message")
		}
		m.Update(tea.ColorProfileMsg{Profile: p})
		check(t, m)
		m.Update(tea.ColorProfileMsg{Profile: colorprofile.Env([]string{"TERM=dumb"})})
		check(t, m)
	})
}

func ansiStripQuote(s string) string { return strings.ReplaceAll(s, "\x1b", "ESC") }
