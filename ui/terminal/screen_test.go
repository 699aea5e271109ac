package terminal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/hanzoai/driftboard/ui/terminal/termtest"
)

// TestLineScreenCarriesStyleAndFallsBack: a style left set at the end of a
// line still colours the next one (a row whose text is the same is drawn
// again when the style carried into it changes); a frame with a sequence
// other than SGR is drawn whole; rows a shorter frame no longer covers are
// cleared.
func TestLineScreenCarriesStyleAndFallsBack(t *testing.T) {
	const (
		red   = "\x1b[31m"
		green = "\x1b[32m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	c := termtest.NewCheck(t, 20, 6, NewLineScreen(20, 6, []string{"TERM=xterm-256color"}, colorprofile.TrueColor))
	for i, f := range []string{
		red + "ab\ncd" + reset + "\nef",
		green + "ab\ncd" + reset + "\nef",
		green + "ab" + reset + "\ncd\nef",
		bold + "x" + reset + red + "ab\n" + bold + "cd\nef" + reset,
		red + bold + "x" + reset + "ab\ncd\nef",
		"a \x1b]8;;https://example.com\x07link\nstill a link\x1b]8;;\x07\nc\nd\ne\nf", // the link carries over
		"a \x1b]8;;https://example.com\x07link\x1b]8;;\x07\nb\nc\nd\ne\nf",
		"one\ntwo\nthree\nfour\nfive\nsix",
		"one\ntwo",
		"",
		red + "only a style\n\n" + reset + "x",
	} {
		c.Frame(fmt.Sprintf("frame %d %q", i, f), f)
	}
}

// TestLineScreenFollowsTheColourProfile: colours are written as the
// terminal's profile allows, and a change of profile repaints the screen in
// the new one.
func TestLineScreenFollowsTheColourProfile(t *testing.T) {
	const frame = "\x1b[38;2;255;107;107mred\x1b[m\nplain"
	ls := NewLineScreen(20, 3, []string{"TERM=xterm-256color"}, colorprofile.ANSI256)
	if got := string(ls.Frame(frame)); !strings.Contains(got, "red") || strings.Contains(got, "38;2;") {
		t.Fatalf("256 colours: a 24-bit colour was written, or no text: %q", got)
	}
	ls.SetProfile(colorprofile.TrueColor)
	if got := string(ls.Frame(frame)); !strings.Contains(got, "38;2;255;107;107") || !strings.Contains(got, "red") {
		t.Fatalf("true colour: the row was not repainted in 24-bit colour: %q", got)
	}
}

func TestCarry(t *testing.T) {
	const (
		red   = "\x1b[31m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	cases := []struct {
		pen, line, want string
		ok              bool
	}{
		{"", "plain", "", true},
		{red, "plain", red, true},
		{red, "a" + reset + "b", "", true},
		{"", red + "a" + reset + "b" + bold + "c", bold, true},
		{red, bold + "a", red + bold, true},
		{red, "a\x1b[0mb" + bold + "c" + red, bold + red, true},
		{"", "a\x1b]8;;x\x07b", "", false},
	}
	for _, c := range cases {
		got, ok := carry(c.pen, c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("carry(%q, %q) = %q, %v; want %q, %v", c.pen, c.line, got, ok, c.want, c.ok)
		}
	}
}
