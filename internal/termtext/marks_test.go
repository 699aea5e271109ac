package termtext

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Combining marks stack on one cell without end: 200,000 of them are one
// character wide and 400 KB long. A few per character are kept (accents,
// vowel signs), the rest escaped, so the text's width grows with its length.
func TestCombiningMarksAreBounded(t *testing.T) {
	flood := "a" + strings.Repeat("\u0301", 200000)
	out := Sanitize(flood)
	if got := longestMarkRun(out); got > MaxMarks {
		t.Fatalf("%d marks in a row kept, want at most %d", got, MaxMarks)
	}
	if w := ansi.StringWidth(out); w < 200000 {
		t.Fatalf("width %d: the marks are still stacked on one cell", w)
	}
	if !strings.HasPrefix(out, "a"+strings.Repeat("\u0301", MaxMarks)+`\u0301`) {
		t.Fatalf("the first marks are not kept whole: %q…", out[:40])
	}
	for _, keep := range []string{"é\u0301", "Tiếng Việt", "क्षत्रिय", "שָׁלוֹם", "👍🏽", "❤\ufe0f", "각", "ᄀ\u1161\u11a8", "a\U000E0100"} {
		if got := Sanitize(keep); got != keep {
			t.Errorf("Sanitize(%q) = %q, want it kept", keep, got)
		}
	}
	// A mark with nothing before it would stack on the cell to its left (a
	// column's separator); the conjoining jamo of Hangul and spacing marks
	// stack the same way.
	for in, want := range map[string]string{
		"\u0301x":                          `\u0301x`,
		"ᄀ" + strings.Repeat("\u1161", 12): "ᄀ" + strings.Repeat("\u1161", MaxMarks) + strings.Repeat(`\u1161`, 4),
		"क" + strings.Repeat("\u093e", 10): "क" + strings.Repeat("\u093e", MaxMarks) + strings.Repeat(`\u093e`, 2),
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SanitizeLines("a\n\u0301"); got != "a\n"+`\u0301` {
		t.Errorf("a mark at the start of a line: %q", got)
	}
}

// Fillers render as nothing (or blank) and are not spaces: a name padded or
// made of them reads as empty or as another name.
func TestInvisibleFillersAreEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"iam\u3164":      `iam\u3164`, // HANGUL FILLER
		"\u115f\u1160x":  `\u115f\u1160x`,
		"a\uffa0b":       `a\uffa0b`, // HALFWIDTH HANGUL FILLER
		"a\u034fb":       `a\u034fb`, // COMBINING GRAPHEME JOINER
		"a\u17b4\u17b5b": `a\u17b4\u17b5b`,
		"a\U000E01F0b":   `a\U000e01f0b`, // default ignorable, reserved
		"\u2800":         "\u2800",       // braille blank: a visible, one-cell blank like a space
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func longestMarkRun(s string) int {
	best, run := 0, 0
	for _, r := range s {
		if unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// stacks' shortcuts agree with the tables for every rune.
func TestStacksMatchesTables(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Other_Grapheme_Extend) ||
			r >= 0x1160 && r <= 0x11FF || r >= 0xD7B0 && r <= 0xD7FF || r >= 0x1F3FB && r <= 0x1F3FF
		if stacks(r) != want {
			t.Fatalf("stacks(%U) = %v, want %v", r, !want, want)
		}
	}
}
