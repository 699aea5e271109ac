// Package logbuf holds a log stream's lines on their way to a reader: the
// bounded ring a log view keeps and the feed that carries a stream's lines
// from the goroutine reading it to the view. Both sides of the handoff (the
// cluster reader and the board) import it; neither may import the other.
package logbuf

import (
	"slices"
	"sync"
)

// MaxBytes bounds the text a log view or a feed holds besides its line
// count: escaping makes a 16 KiB line up to 64 KiB, so 5,000 of them alone
// would be 320 MiB.
const MaxBytes = 8 << 20

// Ring keeps the last lines pushed, at most its capacity and, when it
// has one, at most its byte bound (a single longer line is kept alone);
// older lines are dropped and counted.
type Ring struct {
	buf      []string // circular; grows up to max slots
	start, n int
	max      int
	maxBytes int // 0: lines only
	bytes    int
	byBytes  bool // the byte bound dropped lines
	dropped  int
}

// NewRing holds up to limit lines (at least one).
func NewRing(limit int) *Ring { return &Ring{max: max(1, limit)} }

// NewRingBytes holds up to limit lines and maxBytes bytes of them.
func NewRingBytes(limit, maxBytes int) *Ring {
	return &Ring{max: max(1, limit), maxBytes: maxBytes}
}

// Push appends lines, dropping the oldest beyond the bounds.
func (r *Ring) Push(lines ...string) {
	for _, l := range lines {
		for r.n > 0 && (r.n == r.max || r.maxBytes > 0 && r.bytes+len(l) > r.maxBytes) {
			r.byBytes = r.byBytes || r.n < r.max
			r.dropOldest()
		}
		if r.n == len(r.buf) { // grow, oldest first
			grown := make([]string, min(r.max, max(16, 2*len(r.buf))))
			copy(grown, r.Lines())
			r.buf, r.start = grown, 0
		}
		r.buf[(r.start+r.n)%len(r.buf)] = l
		r.n++
		r.bytes += len(l)
	}
}

func (r *Ring) dropOldest() {
	r.bytes -= len(r.buf[r.start])
	r.buf[r.start] = ""
	r.start = (r.start + 1) % len(r.buf)
	r.n--
	r.dropped++
}

// Len is how many lines are held; Cap the most it holds.
func (r *Ring) Len() int { return r.n }
func (r *Ring) Cap() int { return r.max }

// Bytes is the length of the lines held; ByteBound whether that bound (not
// the line count) dropped lines.
func (r *Ring) Bytes() int      { return r.bytes }
func (r *Ring) ByteBound() bool { return r.byBytes }

// At is the i-th line held, oldest first.
func (r *Ring) At(i int) string { return r.buf[(r.start+i)%len(r.buf)] }

// Dropped counts the lines pushed out since the ring was made or reset.
func (r *Ring) Dropped() int { return r.dropped }

// AddDropped counts lines dropped before they reached the ring.
func (r *Ring) AddDropped(n int) { r.dropped += n }

// Lines are the lines held, oldest first (a copy).
func (r *Ring) Lines() []string {
	out := make([]string, 0, r.n)
	for i := range r.n {
		out = append(out, r.At(i))
	}
	return out
}

// Reset empties the ring and its counts.
func (r *Ring) Reset() {
	r.buf, r.start, r.n, r.bytes, r.byBytes, r.dropped = nil, 0, 0, 0, false, 0
}

// Feed hands the lines of one log stream from the reader to the board:
// the reader pushes, the board takes what has arrived when Ready signals.
// What waits is bounded like the view (a fast pod drops its oldest waiting
// lines, counted); Ready has room for one signal, so bursts coalesce.
type Feed struct {
	mu      sync.Mutex
	ready   chan struct{}
	pending *Ring
	done    bool
	err     error
}

// Batch is what a Take found: lines in order, how many were dropped
// before they could be taken, and whether the stream has ended (and why).
type Batch struct {
	Lines   []string
	Dropped int
	Done    bool
	Err     error
}

// NewFeed keeps at most limit lines (and MaxBytes) waiting.
func NewFeed(limit int) *Feed {
	return &Feed{ready: make(chan struct{}, 1), pending: NewRingBytes(limit, MaxBytes)}
}

// Push adds one line from the stream.
func (f *Feed) Push(line string) {
	f.mu.Lock()
	f.pending.Push(line)
	f.mu.Unlock()
	f.signal()
}

// End marks the stream over; err is why, nil for a normal end.
func (f *Feed) End(err error) {
	f.mu.Lock()
	f.done, f.err = true, err
	f.mu.Unlock()
	f.signal()
}

func (f *Feed) signal() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// Ready signals that a Take will find something.
func (f *Feed) Ready() <-chan struct{} { return f.ready }

// Take removes and returns what has arrived.
func (f *Feed) Take() Batch {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := Batch{Lines: slices.Clip(f.pending.Lines()), Dropped: f.pending.Dropped(), Done: f.done, Err: f.err}
	f.pending.Reset()
	return b
}
