package bench

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// The terminal the programs run in: the size every figure in
// docs/performance.md is measured at.
const (
	termCols = 200
	termRows = 50
)

// ptyProgram is a terminal program (the board, or k9s for bench-peer) in a
// real pseudo-terminal, its output fed to a terminal emulator so the bench
// reads the screen a user would see.
type ptyProgram struct {
	cmd     *exec.Cmd
	tty     *os.File
	started time.Time

	mu      sync.Mutex
	emu     *vt.Emulator
	screen  string // the emulator's text after the last read
	waiters []*screenWaiter
	done    chan struct{}
}

// screenWaiter is a condition on the screen and when it first held.
type screenWaiter struct {
	cond func(screen string) bool
	at   time.Time
	hit  chan struct{}
}

// startPTY runs bin with args in a fresh pseudo-terminal of termCols ×
// termRows, with env added to a minimal environment.
func startPTY(tb testing.TB, bin string, args, env []string) *ptyProgram {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	// No GOMAXPROCS: a user sets none, and setting it turns off the board's
	// own choice of cores once synced (cli/procpolicy.go).
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}, env...)
	p := &ptyProgram{cmd: cmd, emu: vt.NewEmulator(termCols, termRows), done: make(chan struct{})}
	p.started = time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: termCols, Rows: termRows})
	if err != nil {
		tb.Fatalf("start %s in a pty: %v", bin, err)
	}
	p.tty = tty
	tb.Cleanup(p.stop)
	go p.answer()
	go p.read()
	return p
}

// read feeds the program's output to the emulator and checks the waiters
// after every chunk: a condition's time is when its bytes arrived.
func (p *ptyProgram) read() {
	defer close(p.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := p.tty.Read(buf)
		if n > 0 {
			now := time.Now()
			p.mu.Lock()
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
func (p *ptyProgram) answer() {
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

// when registers cond; the returned waiter's hit closes when the screen
// first satisfies it (at once if it already does).
func (p *ptyProgram) when(cond func(string) bool) *screenWaiter {
	w := &screenWaiter{cond: cond, hit: make(chan struct{})}
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

// await waits for cond up to limit and returns when it first held.
func (p *ptyProgram) await(tb testing.TB, what string, limit time.Duration, cond func(string) bool) time.Time {
	tb.Helper()
	w := p.when(cond)
	select {
	case <-w.hit:
		return w.at
	case <-p.done:
		tb.Fatalf("%s: the program ended first; screen:\n%s", what, p.text())
	case <-time.After(limit):
		tb.Fatalf("%s: not on screen after %s; screen:\n%s", what, limit, p.text())
	}
	return time.Time{}
}

func (p *ptyProgram) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.screen
}

// keys types s into the terminal.
func (p *ptyProgram) keys(tb testing.TB, s string) {
	if _, err := p.tty.Write([]byte(s)); err != nil {
		tb.Fatalf("type %q: %v", s, err)
	}
}

func (p *ptyProgram) pid() int { return p.cmd.Process.Pid }

func (p *ptyProgram) stop() {
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

// rssMiB is a process's resident set (VmRSS) or peak (VmHWM) in MiB.
func rssMiB(pid int, field string) float64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// resetPeakRSS restarts a process's VmHWM from its current RSS.
func resetPeakRSS(pid int) error {
	return os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0)
}

// buildBoard compiles the board binary once per run, as `make build` does,
// into boardBuildDir, which TestMain removes when the run ends.
var buildBoard = sync.OnceValues(func() (string, error) {
	// Mkdir, not MkdirAll: the name is predictable, so take only a fresh directory.
	dir := boardBuildDir()
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "driftboard")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "../../..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

// boardBuildDir is this run's own: a run leaves no 100 MB binary behind.
func boardBuildDir() string {
	return filepath.Join(os.TempDir(), "driftboard-bench-"+strconv.Itoa(os.Getpid()))
}
