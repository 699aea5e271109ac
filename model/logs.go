package model

import (
	"slices"
	"sync"
	"time"
)

// LogPod is one pod of an App's workload as the log view offers it.
type LogPod struct {
	Name         string
	Containers   []string // in the pod's order
	AppContainer string   // the container running the App's image (else the first)
	Created      time.Time
	Ready        bool
	Restarts     int32  // of all containers
	Waiting      string // a container's waiting reason, e.g. CrashLoopBackOff
}

// Problem is true when the pod is the one an on-call engineer reads first:
// not ready, restarted, or a container waiting on a reason.
func (p LogPod) Problem() bool { return !p.Ready || p.Restarts > 0 || p.Waiting != "" }

// DefaultLogPod is the index of the pod whose logs open first: the newest
// pod with a problem, else the first; -1 without pods.
func DefaultLogPod(pods []LogPod) int {
	best := -1
	for i, p := range pods {
		if p.Problem() && (best < 0 || p.Created.After(pods[best].Created)) {
			best = i
		}
	}
	if best < 0 && len(pods) > 0 {
		best = 0
	}
	return best
}

// LogRequest is one stream of one container's log.
type LogRequest struct {
	Pod, Container string
	Previous       bool  // the crashed (previous) instance
	Follow         bool  // keep streaming new lines
	Tail           int64 // only the last Tail lines; < 0 is all
	MaxLines       int   // the feed keeps at most this many lines waiting
}

// MaxLogBytes bounds the text a log view or a feed holds besides its line
// count: escaping makes a 16 KiB line up to 64 KiB, so 5,000 of them alone
// would be 320 MiB.
const MaxLogBytes = 8 << 20

// LineRing keeps the last lines pushed, at most its capacity and, when it
// has one, at most its byte bound (a single longer line is kept alone);
// older lines are dropped and counted.
type LineRing struct {
	buf      []string // circular; grows up to max slots
	start, n int
	max      int
	maxBytes int // 0: lines only
	bytes    int
	byBytes  bool // the byte bound dropped lines
	dropped  int
}

// NewLineRing holds up to limit lines (at least one).
func NewLineRing(limit int) *LineRing { return &LineRing{max: max(1, limit)} }

// NewLineRingBytes holds up to limit lines and maxBytes bytes of them.
func NewLineRingBytes(limit, maxBytes int) *LineRing {
	return &LineRing{max: max(1, limit), maxBytes: maxBytes}
}

// Push appends lines, dropping the oldest beyond the bounds.
func (r *LineRing) Push(lines ...string) {
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

func (r *LineRing) dropOldest() {
	r.bytes -= len(r.buf[r.start])
	r.buf[r.start] = ""
	r.start = (r.start + 1) % len(r.buf)
	r.n--
	r.dropped++
}

// Len is how many lines are held; Cap the most it holds.
func (r *LineRing) Len() int { return r.n }
func (r *LineRing) Cap() int { return r.max }

// Bytes is the length of the lines held; ByteBound whether that bound (not
// the line count) dropped lines.
func (r *LineRing) Bytes() int      { return r.bytes }
func (r *LineRing) ByteBound() bool { return r.byBytes }

// At is the i-th line held, oldest first.
func (r *LineRing) At(i int) string { return r.buf[(r.start+i)%len(r.buf)] }

// Dropped counts the lines pushed out since the ring was made or reset.
func (r *LineRing) Dropped() int { return r.dropped }

// AddDropped counts lines dropped before they reached the ring.
func (r *LineRing) AddDropped(n int) { r.dropped += n }

// Lines are the lines held, oldest first (a copy).
func (r *LineRing) Lines() []string {
	out := make([]string, 0, r.n)
	for i := range r.n {
		out = append(out, r.At(i))
	}
	return out
}

// Reset empties the ring and its counts.
func (r *LineRing) Reset() {
	r.buf, r.start, r.n, r.bytes, r.byBytes, r.dropped = nil, 0, 0, 0, false, 0
}

// LogFeed hands the lines of one log stream from the reader to the board:
// the reader pushes, the board takes what has arrived when Ready signals.
// What waits is bounded like the view (a fast pod drops its oldest waiting
// lines, counted); Ready has room for one signal, so bursts coalesce.
type LogFeed struct {
	mu      sync.Mutex
	ready   chan struct{}
	pending *LineRing
	done    bool
	err     error
}

// LogBatch is what a Take found: lines in order, how many were dropped
// before they could be taken, and whether the stream has ended (and why).
type LogBatch struct {
	Lines   []string
	Dropped int
	Done    bool
	Err     error
}

// NewLogFeed keeps at most limit lines (and MaxLogBytes) waiting.
func NewLogFeed(limit int) *LogFeed {
	return &LogFeed{ready: make(chan struct{}, 1), pending: NewLineRingBytes(limit, MaxLogBytes)}
}

// Push adds one line from the stream.
func (f *LogFeed) Push(line string) {
	f.mu.Lock()
	f.pending.Push(line)
	f.mu.Unlock()
	f.signal()
}

// End marks the stream over; err is why, nil for a normal end.
func (f *LogFeed) End(err error) {
	f.mu.Lock()
	f.done, f.err = true, err
	f.mu.Unlock()
	f.signal()
}

func (f *LogFeed) signal() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// Ready signals that a Take will find something.
func (f *LogFeed) Ready() <-chan struct{} { return f.ready }

// Take removes and returns what has arrived.
func (f *LogFeed) Take() LogBatch {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := LogBatch{Lines: slices.Clip(f.pending.Lines()), Dropped: f.pending.Dropped(), Done: f.done, Err: f.err}
	f.pending.Reset()
	return b
}
