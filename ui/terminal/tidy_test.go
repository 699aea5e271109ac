package terminal

import "testing"

func TestTidy(t *testing.T) {
	const (
		red   = "\x1b[31m"
		bold  = "\x1b[1m"
		reset = "\x1b[m"
	)
	cases := []struct{ name, in, want string }{
		{"spaces with no style end a line", "ab   \ncd  ", "ab\ncd"},
		{"spaces after a reset end a line", red + "ab" + reset + "   \n", red + "ab" + reset + "\n"},
		{"styled spaces stay", red + "ab   \n" + reset, red + "ab   \n" + reset},
		{"styled spaces before a reset stay", red + "ab   " + reset + "  ", red + "ab   " + reset},
		{"the style carries over a line break", red + "\n  ", red + "\n  "},
		{"inner spaces stay", "a   b  ", "a   b"},
		{"a reset with no style goes", reset + "a" + "\x1b[0m" + reset + "b", "ab"},
		{"a reset and the same style again go", red + bold + "a" + reset + red + bold + " b" + reset, red + bold + "a b" + reset},
		{"a reset and another style stay", red + "a" + reset + bold + "b" + reset, red + "a" + reset + bold + "b" + reset},
		{"a reset and part of the style stay", red + bold + "a" + reset + red + "b", red + bold + "a" + reset + red + "b"},
		{"spaces kept under a style the reset did not end", red + "a  " + reset + red + "b", red + "a  b"},
		{"any other sequence ends the tidying", "a \x1b]8;;x\x07 b  ", "a \x1b]8;;x\x07 b  "},
	}
	for _, c := range cases {
		if got := Tidy(c.in); got != c.want {
			t.Errorf("%s: Tidy(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}
