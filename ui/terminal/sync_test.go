//go:build unix

package terminal

import (
	"testing"
)

func TestAsksForSyncedOutputAsBubbleteaDoes(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want bool
	}{
		{nil, true},
		{[]string{"TERM_PROGRAM=iTerm.app"}, true},
		{[]string{"TERM_PROGRAM=Apple_Terminal"}, false},
		{[]string{"SSH_TTY=/dev/pts/3"}, false},
		{[]string{"SSH_TTY=/dev/pts/3", "TERM=xterm-kitty"}, true},
		{[]string{"SSH_TTY=/dev/pts/3", "WT_SESSION=x"}, true},
	} {
		if got := asksForSyncedOutput(c.env); got != c.want {
			t.Errorf("%v: asks %v, want %v", c.env, got, c.want)
		}
	}
}
