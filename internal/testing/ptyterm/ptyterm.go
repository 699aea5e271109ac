// Package ptyterm runs a terminal program in a real pseudo-terminal and
// feeds its output to a terminal emulator, so a test or a benchmark reads
// the screen a user would see. The end-to-end tests and the benchmarks of
// the whole program share it.
package ptyterm

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// Options size the terminal and say what it keeps.
type Options struct {
	Cols, Rows int
	// Env is the whole environment beside PATH and TERM.
	Env []string
	// KeepRaw keeps every byte the program wrote (Raw); off for long
	// benchmark runs, whose output would only grow.
	KeepRaw bool
}

// Terminal is one program in its pseudo-terminal.
type Terminal struct {
	cmd     *exec.Cmd
	tty     *os.File
	started time.Time

	mu      sync.Mutex
	emu     *vt.Emulator
	screen  string // the emulator's text after the last read
	keepRaw bool
	all     strings.Builder // every byte the program wrote, with KeepRaw
	waiters []*Waiter
	done    chan struct{}
}

// Waiter is a condition on the screen and when it first held.
type Waiter struct {
	cond func(screen string) bool
	at   time.Time
	hit  chan struct{}
}

// Hit closes when the condition first holds.
func (w *Waiter) Hit() <-chan struct{} { return w.hit }

// At is when the condition first held (after Hit closed): when the bytes
// that made it true arrived.
func (w *Waiter) At() time.Time { return w.at }

// Start runs bin with args in a fresh pseudo-terminal; the program is
// interrupted (then killed) when tb ends.
func Start(tb testing.TB, bin string, args []string, o Options) *Terminal {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}, o.Env...)
	p := &Terminal{cmd: cmd, emu: vt.NewEmulator(o.Cols, o.Rows), keepRaw: o.KeepRaw, done: make(chan struct{})}
	p.started = time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(o.Cols), Rows: uint16(o.Rows)})
	if err != nil {
		tb.Fatalf("start %s in a pty: %v", bin, err)
	}
	p.tty = tty
	tb.Cleanup(p.Stop)
	go p.answer()
	go p.read()
	return p
}

// read feeds the program's output to the emulator and checks the waiters
// after every chunk: a condition's time is when its bytes arrived.
func (p *Terminal) read() {
	defer close(p.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := p.tty.Read(buf)
		if n > 0 {
			now := time.Now()
			p.mu.Lock()
			if p.keepRaw {
				p.all.Write(buf[:n])
			}
			_, _ = p.emu.Write(buf[:n])
			p.screen = p.emu.String()
			kept := p.waiters[:0]
			for _, w := range p.waiters {
				if w.cond(p.screen) {
					w.at = now
					close(w.hit)
				} else {
					kept = append(kept, w)
				}
			}
			p.waiters = kept
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// answer sends the emulator's replies (colour and capability queries) back
// to the program, as a terminal would.
func (p *Terminal) answer() {
	buf := make([]byte, 4096)
	for {
		n, err := p.emu.Read(buf)
		if n > 0 {
			if _, werr := p.tty.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// When registers cond; the returned waiter's Hit closes when the screen
// first satisfies it (at once if it already does).
func (p *Terminal) When(cond func(string) bool) *Waiter {
	w := &Waiter{cond: cond, hit: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	if cond(p.screen) {
		w.at = time.Now()
		close(w.hit)
		return w
	}
	p.waiters = append(p.waiters, w)
	return w
}

// Text is the screen now.
func (p *Terminal) Text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.screen
}

// Raw is every byte the program wrote, escape sequences and all (with
// KeepRaw): what it wrote before or between frames is there even when
// painted over.
func (p *Terminal) Raw() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all.String()
}

// Done closes when the program's output ends (it exited).
func (p *Terminal) Done() <-chan struct{} { return p.done }

// Started is when the program was started.
func (p *Terminal) Started() time.Time { return p.started }

// PID is the program's process id.
func (p *Terminal) PID() int { return p.cmd.Process.Pid }

// Type writes s to the terminal as one write.
func (p *Terminal) Type(s string) error {
	_, err := p.tty.Write([]byte(s))
	return err
}

// Stop interrupts the program, kills it after 5 s, and closes the terminal.
func (p *Terminal) Stop() {
	if p.cmd.Process == nil || p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	exited := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-exited
	}
	_ = p.tty.Close()
	_ = p.emu.Close()
}
