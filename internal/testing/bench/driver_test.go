package bench

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// boardProcess is the running child (see runChild) as the parent sees it.
type boardProcess struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	started time.Time
	control chan string // every line but "seen"
	stderr  lockedWriter

	mu   sync.Mutex
	seen map[string]time.Time // "<ns>/<name> <tag>" → when a snapshot first showed it
}

// childStats is one "stats" answer.
type childStats struct {
	CPU        time.Duration
	RSS, Peak  float64 // MiB
	Heap       float64 // MiB in use
	Goroutines int
}

func startBoard(tb testing.TB, kubeconfig string, rows int, env ...string) *boardProcess {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childKubeconfigEnv+"="+kubeconfig, childRowsEnv+"="+strconv.Itoa(rows), "GOMAXPROCS=2")
	cmd.Env = append(cmd.Env, env...)
	p := &boardProcess{cmd: cmd, control: make(chan string, 16), seen: map[string]time.Time{}}
	cmd.Stderr = &p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(p.stop)
	go p.read(stdout)
	return p
}

func (p *boardProcess) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "seen "); ok {
			f := strings.Fields(rest)
			if len(f) == 3 {
				ns, _ := strconv.ParseInt(f[2], 10, 64)
				p.mu.Lock()
				if _, dup := p.seen[f[0]+" "+f[1]]; !dup {
					p.seen[f[0]+" "+f[1]] = time.Unix(0, ns)
				}
				p.mu.Unlock()
			}
			continue
		}
		p.control <- line
	}
	close(p.control)
}

// expect waits for the next control line starting with prefix.
func (p *boardProcess) expect(tb testing.TB, prefix string, timeout time.Duration) []string {
	tb.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-p.control:
			if !ok {
				tb.Fatalf("board process ended before %q: %v\nstderr:\n%s", prefix, p.cmd.Wait(), p.stderrText())
			}
			if rest, found := strings.CutPrefix(line, prefix+" "); found {
				return strings.Fields(rest)
			}
			tb.Logf("board process: %s", line)
		case <-deadline:
			tb.Fatalf("no %q from the board process within %s\nstderr:\n%s", prefix, timeout, p.stderrText())
		}
	}
}

func (p *boardProcess) stats(tb testing.TB, gc bool) childStats {
	tb.Helper()
	cmd := "stats\n"
	if gc {
		cmd = "gcstats\n"
	}
	if _, err := io.WriteString(p.stdin, cmd); err != nil {
		tb.Fatalf("board process: %v", err)
	}
	f := p.expect(tb, "stats", time.Minute)
	n := make([]int64, len(f))
	for i, s := range f {
		n[i], _ = strconv.ParseInt(s, 10, 64)
	}
	if len(n) < 5 {
		tb.Fatalf("bad stats line %q", f)
	}
	return childStats{CPU: time.Duration(n[0]), RSS: float64(n[1]) / 1024, Peak: float64(n[2]) / 1024,
		Heap: float64(n[3]) / (1 << 20), Goroutines: int(n[4])}
}

func (p *boardProcess) seenAt(key, tag string) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.seen[key+" "+tag]
	return t, ok
}

func (p *boardProcess) stderrText() string {
	p.stderr.mu.Lock()
	s := p.stderr.b.String()
	p.stderr.mu.Unlock()
	if len(s) > 4000 {
		s = "…" + s[len(s)-4000:]
	}
	return s
}

func (p *boardProcess) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	_, _ = io.WriteString(p.stdin, "quit\n")
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
