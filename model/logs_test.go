package model

import (
	"fmt"
	"slices"
	"strings"
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

// The ring never holds more than its capacity and counts what it dropped;
// the feed hands over lines in order, bounded the same way.
func TestLineRingAndFeedStayBounded(t *testing.T) {
	t.Parallel()
	r := NewLineRing(3)
	for i := range 10 {
		r.Push(fmt.Sprint(i))
		if r.Len() > 3 {
			t.Fatalf("ring holds %d lines", r.Len())
		}
	}
	if got := r.Lines(); !slices.Equal(got, []string{"7", "8", "9"}) || r.Dropped() != 7 || r.At(0) != "7" {
		t.Errorf("ring %v dropped %d", got, r.Dropped())
	}
	f := NewLogFeed(4)
	for i := range 6 {
		f.Push(fmt.Sprint(i))
	}
	select {
	case <-f.Ready():
	default:
		t.Fatal("no signal after pushes")
	}
	b := f.Take()
	if !slices.Equal(b.Lines, []string{"2", "3", "4", "5"}) || b.Dropped != 2 || b.Done {
		t.Errorf("first take %+v", b)
	}
	f.Push("6")
	f.End(nil)
	if b := f.Take(); !slices.Equal(b.Lines, []string{"6"}) || b.Dropped != 0 || !b.Done {
		t.Errorf("last take %+v", b)
	}
}

// The byte bound drops the oldest lines too; one line longer than it is
// kept alone, and the line count still holds.
func TestLineRingBytesBound(t *testing.T) {
	t.Parallel()
	r := NewLineRingBytes(100, 10)
	r.Push("aaaa", "bbbb", "cccc")
	if got := r.Lines(); !slices.Equal(got, []string{"bbbb", "cccc"}) || r.Bytes() != 8 || r.Dropped() != 1 || !r.ByteBound() {
		t.Errorf("ring %v, %d bytes, dropped %d", got, r.Bytes(), r.Dropped())
	}
	r.Push(strings.Repeat("x", 50))
	if r.Len() != 1 || r.Bytes() != 50 || r.Dropped() != 3 {
		t.Errorf("a line over the bound: %d lines, %d bytes, dropped %d", r.Len(), r.Bytes(), r.Dropped())
	}
	r.Reset()
	lines := NewLineRingBytes(3, 1<<20)
	for i := range 40 {
		lines.Push(fmt.Sprint(i))
	}
	if got := lines.Lines(); !slices.Equal(got, []string{"37", "38", "39"}) || lines.ByteBound() || lines.Dropped() != 37 {
		t.Errorf("line bound: %v, dropped %d", got, lines.Dropped())
	}
}
