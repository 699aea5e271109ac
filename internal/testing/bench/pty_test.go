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

	"github.com/hanzoai/driftboard/internal/testing/ptyterm"
)

// The terminal the programs run in: the size every figure in
// docs/performance.md is measured at.
const (
	termCols = 200
	termRows = 50
)

// ptyProgram is a terminal program (the board, or k9s for bench-peer) in a
// real pseudo-terminal (ptyterm), so the bench reads the screen a user would
// see and times a condition by when its bytes arrived.
type ptyProgram struct{ *ptyterm.Terminal }

// startPTY runs bin with args in a fresh pseudo-terminal of termCols ×
// termRows, with env added to a minimal environment. No GOMAXPROCS: a user
// sets none, and setting it turns off the board's own choice of cores once
// synced (cli/procpolicy.go).
func startPTY(tb testing.TB, bin string, args, env []string) *ptyProgram {
	tb.Helper()
	return &ptyProgram{ptyterm.Start(tb, bin, args, ptyterm.Options{Cols: termCols, Rows: termRows, Env: env})}
}

// when registers cond; the returned waiter's Hit closes when the screen
// first satisfies it (at once if it already does).
func (p *ptyProgram) when(cond func(string) bool) *ptyterm.Waiter { return p.When(cond) }

// await waits for cond up to limit and returns when it first held.
func (p *ptyProgram) await(tb testing.TB, what string, limit time.Duration, cond func(string) bool) time.Time {
	tb.Helper()
	w := p.When(cond)
	select {
	case <-w.Hit():
		return w.At()
	case <-p.Done():
		tb.Fatalf("%s: the program ended first; screen:\n%s", what, p.Text())
	case <-time.After(limit):
		tb.Fatalf("%s: not on screen after %s; screen:\n%s", what, limit, p.Text())
	}
	return time.Time{}
}

// keys types s into the terminal.
func (p *ptyProgram) keys(tb testing.TB, s string) {
	if err := p.Type(s); err != nil {
		tb.Fatalf("type %q: %v", s, err)
	}
}

func (p *ptyProgram) pid() int { return p.PID() }

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
