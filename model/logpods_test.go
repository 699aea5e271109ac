package model

import (
	"testing"
	"time"
)

func TestDefaultLogPod(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	ok := func(name string, age time.Duration) LogPod {
		return LogPod{Name: name, Ready: true, Created: now.Add(-age)}
	}
	crashing := func(p LogPod) LogPod { p.Restarts = 2; return p }
	waiting := func(p LogPod) LogPod { p.Waiting = "ImagePullBackOff"; return p }
	for _, tc := range []struct {
		name string
		pods []LogPod
		want int
	}{
		{"none", nil, -1},
		{"all fine: the first", []LogPod{ok("a", time.Hour), ok("b", time.Minute)}, 0},
		{"the one with a problem", []LogPod{ok("a", time.Hour), crashing(ok("b", 2*time.Hour))}, 1},
		{"the newest of those with problems", []LogPod{crashing(ok("a", time.Hour)), waiting(ok("b", time.Minute)), ok("c", 0)}, 1},
		{"not ready counts", []LogPod{ok("a", 0), {Name: "b", Created: now.Add(-time.Hour)}}, 1},
	} {
		if got := DefaultLogPod(tc.pods); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
