package termtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitizeEscapesEveryFamily(t *testing.T) {
	cases := []struct{ in, want string }{
		{"v1.2.3", "v1.2.3"},
		{"", ""},
		{"日本語-é", "日本語-é"},
		{"a\x1b[2Jb", `a\x1b[2Jb`},                   // CSI
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`}, // OSC 52, BEL
		{"\x1b]8;;https://evil\x1b\\x\x1b]8;;\x1b\\", `\x1b]8;;https://evil\x1b\x\x1b]8;;\x1b\`}, // OSC 8, ST
		{"\x1bPq#0;2;0;0;0\x1b\\", `\x1bPq#0;2;0;0;0\x1b\`},                                      // DCS (sixel)
		{"\x1b_Gf=100;AAAA\x1b\\", `\x1b_Gf=100;AAAA\x1b\`},                                      // APC (kitty image)
		{"\x1b^pm\x1b\\\x1bXsos\x1b\\", `\x1b^pm\x1b\\x1bXsos\x1b\`},                             // PM, SOS
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},                                             // SGR
		{"ok\rEVIL", `ok\x0dEVIL`},                                                               // CR hides what came before
		{"a\nb\tc", `a\x0ab\x09c`},
		{"\u009b2J", `\u009b2J`}, // C1 CSI as UTF-8
		{"x\x9b2J", `x\x9b2J`},   // 8-bit C1 CSI, not UTF-8
		{"del\x7f", `del\x7f`},
		{"abc\u202edcba", `abc\u202edcba`}, // RLO
		{"\u2066x\u2069", `\u2066x\u2069`}, // isolates
		{"a\u200bb\u200dc\ufeff\u2060\u2064", `a\u200bb\u200dc\ufeff\u2060\u2064`},
		{"tag\U000E0041", `tag\U000e0041`}, // tag character (Cf)
		{"line\u2028sep", `line\u2028sep`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"é\u0301 👍🏽", "é\u0301 👍🏽"}, // combining marks and emoji stay
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnsafeRuneMatchesTables(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
		if unsafeRune(r) != want {
			t.Fatalf("unsafeRune(%U) = %v, want %v", r, !want, want)
		}
	}
}

func TestSanitizeLinesKeepsOnlyNewline(t *testing.T) {
	if got, want := SanitizeLines("one\ntwo\r\x1b[1A"), `one`+"\n"+`two\x0d\x1b[1A`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestCleanInputIsNotCopied(t *testing.T) {
	for _, s := range []string{"ghcr.io/hanzoai/iam:v1.4.0", "日本語 ✓ ▲ ✖"} {
		if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
			t.Errorf("Sanitize(%q) allocated %v times", s, n)
		}
		if !IsClean(s) {
			t.Errorf("IsClean(%q) = false", s)
		}
	}
}

func TestWidthOfEscapedText(t *testing.T) {
	// wide and combining characters keep their width; escapes are counted
	// as the characters they print.
	for _, c := range []struct {
		in    string
		width int
	}{{"日本", 4}, {"e\u0301", 1}, {"\x1b", 4}, {"a\u202eb", 8}} {
		if w := ansi.StringWidth(Sanitize(c.in)); w != c.width {
			t.Errorf("width of Sanitize(%q) = %d, want %d", c.in, w, c.width)
		}
	}
}

func TestSanitizeStyledKeepsOnlySGR(t *testing.T) {
	in := "\x1b[1;38;2;1:2:3mtitle\x1b[m\n\x1b]52;c;x\x07\x1b[2J\rz"
	want := "\x1b[1;38;2;1:2:3mtitle\x1b[m\n" + `\x1b]52;c;x\x07\x1b[2J\x0dz`
	if got := SanitizeStyled(in); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	clean := "\x1b[31mred\x1b[m plain\n"
	if n := testing.AllocsPerRun(100, func() { _ = SanitizeStyled(clean) }); n != 0 {
		t.Fatalf("a frame with only SGR allocated %v times", n)
	}
}

func TestWriterEscapesAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	rlo := []byte("\u202e")
	parts := [][]byte{[]byte("name\tv1\x1b]52;c;x"), []byte("\x07 ok "), rlo[:1], rlo[1:], []byte("日"[:2]), []byte("日"[2:] + "\n")}
	for _, p := range parts {
		if n, err := w.Write(p); err != nil || n != len(p) {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	want := "name\tv1" + `\x1b]52;c;x\x07 ok \u202e` + "日\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}

// noControl fails when s holds a character a terminal could act on or hide.
func noControl(t *testing.T, s string, keep string) {
	t.Helper()
	for i, r := range s {
		if strings.ContainsRune(keep, r) {
			continue
		}
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			t.Fatalf("output %q has %U at %d", s, r, i)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"v1.0", "\x1b]52;c;aGk=\x07", "\x1bP\x1b\\", "a\u202eb", "\x9b", "日\u0301", "\xff\xfe", "\r\n\t",
		"a" + strings.Repeat("\u0301", 20), "\u0301\n\u0301", "\u3164\u115f\u1160", "\x1b[1me\x1b[m\u0301\u0301", "ᄀ" + strings.Repeat("\u1161", 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		noControl(t, out, "")
		if !utf8.ValidString(out) {
			t.Fatalf("output %q is not UTF-8", out)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
		if ansi.Strip(out) != out {
			t.Fatalf("output %q still holds something the ANSI parser reads as a sequence", out)
		}
		if w := ansi.StringWidth(out); w < 0 || w > 2*utf8.RuneCountInString(out) {
			t.Fatalf("width %d of %q out of range", w, out)
		}
		if IsClean(in) != (out == in) {
			t.Fatalf("IsClean(%q) disagrees with Sanitize", in)
		}
		lines := SanitizeLines(in)
		noControl(t, lines, "\n")
		if strings.Count(lines, "\n") != strings.Count(in, "\n") {
			t.Fatalf("SanitizeLines changed the line count of %q", in)
		}
		styled := SanitizeStyled(in)
		if strings.Contains(ansi.Strip(styled), "\x1b") {
			t.Fatalf("SanitizeStyled(%q) = %q keeps a sequence that is not SGR", in, styled)
		}
		for what, s := range map[string]string{"Sanitize": out, "SanitizeLines": lines, "SanitizeStyled": ansi.Strip(styled)} {
			if n := longestStack(s); n > MaxMarks {
				t.Fatalf("%s(%q) keeps %d marks on one character", what, in, n)
			}
			if i := strings.IndexFunc(s, filler); i >= 0 {
				t.Fatalf("%s(%q) keeps a filler at %d: %q", what, in, i, s)
			}
		}
		if FirstRaw(out, false) >= 0 || FirstRaw(lines, false) >= 0 || FirstRaw(styled, true) >= 0 {
			t.Fatalf("FirstRaw finds something the sanitisers left in %q", in)
		}
		if utf8.ValidString(in) { // JSON: escaped, and decoded back exactly
			enc, _ := json.Marshal(in)
			safe := JSONSafe(enc)
			var back string
			if err := json.Unmarshal(safe, &back); err != nil || back != in {
				t.Fatalf("JSONSafe(%s) = %s decodes to %q, %v", enc, safe, back, err)
			}
			if n := longestStack(string(safe)); n > MaxMarks || strings.IndexFunc(string(safe), filler) >= 0 || FirstRaw(string(safe), false) >= 0 {
				t.Fatalf("JSONSafe(%s) = %s leaves marks or fillers", enc, safe)
			}
		}
	})
}

func BenchmarkSanitize(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"clean-ascii", "ghcr.io/hanzoai/iam:v1.4.0"},
		{"clean-unicode", "v1.4.0→v1.3.9 日本語"},
		{"hostile", "v1\x1b]52;c;aGVsbG8=\x07\u202e0.4.1v"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Sanitize(c.s)
			}
		})
	}
}

// BenchmarkSanitizeStyledFrame is the board's last guard over one 200×50
// frame of styled rows (clean: nothing to escape).
func BenchmarkSanitizeStyledFrame(b *testing.B) {
	line := strings.Repeat("\x1b[1;38;2;86;211;100m✓ ok\x1b[m  svc-0001  hanzo  v1.0.0→v1.0.1  ", 4)
	frame := strings.Repeat(line+"\n", 50)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		_ = SanitizeStyled(frame)
	}
}

// longestStack is the most marks on one character in s.
func longestStack(s string) int {
	best, run := 0, 0
	for _, r := range s {
		if stacks(r) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
