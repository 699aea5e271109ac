package logbuf

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The ring never holds more than its capacity and counts what it dropped;
// the feed hands over lines in order, bounded the same way.
func TestRingAndFeedStayBounded(t *testing.T) {
	t.Parallel()
	r := NewRing(3)
	for i := range 10 {
		r.Push(fmt.Sprint(i))
		if r.Len() > 3 {
			t.Fatalf("ring holds %d lines", r.Len())
		}
	}
	if got := r.Lines(); !slices.Equal(got, []string{"7", "8", "9"}) || r.Dropped() != 7 || r.At(0) != "7" {
		t.Errorf("ring %v dropped %d", got, r.Dropped())
	}
	f := NewFeed(4)
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
func TestRingBytesBound(t *testing.T) {
	t.Parallel()
	r := NewRingBytes(100, 10)
	r.Push("aaaa", "bbbb", "cccc")
	if got := r.Lines(); !slices.Equal(got, []string{"bbbb", "cccc"}) || r.Bytes() != 8 || r.Dropped() != 1 || !r.ByteBound() {
		t.Errorf("ring %v, %d bytes, dropped %d", got, r.Bytes(), r.Dropped())
	}
	r.Push(strings.Repeat("x", 50))
	if r.Len() != 1 || r.Bytes() != 50 || r.Dropped() != 3 {
		t.Errorf("a line over the bound: %d lines, %d bytes, dropped %d", r.Len(), r.Bytes(), r.Dropped())
	}
	r.Reset()
	lines := NewRingBytes(3, 1<<20)
	for i := range 40 {
		lines.Push(fmt.Sprint(i))
	}
	if got := lines.Lines(); !slices.Equal(got, []string{"37", "38", "39"}) || lines.ByteBound() || lines.Dropped() != 37 {
		t.Errorf("line bound: %v, dropped %d", got, lines.Dropped())
	}
}
