package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/ptyterm"
)

// buildDir holds the binary built for this package's run; TestMain removes it.
var buildDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// builtBinary is driftboard built as a user builds it, once per run.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "driftboard-e2e-")
	if err != nil {
		return "", err
	}
	buildDir = dir
	bin := filepath.Join(dir, "driftboard")
	// The test's own environment (make test's CGO_ENABLED=0 included), so the
	// build reuses the packages the test run compiled.
	cmd := exec.Command("go", "build", "-o", bin, "../../..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

// terminal is the built binary in a pseudo-terminal (ptyterm): the test
// reads the screen a user would see.
type terminal struct {
	t *testing.T
	*ptyterm.Terminal
}

const termCols, termRows = 180, 50

// startTerminal runs bin with args in a fresh pseudo-terminal; env is the
// whole environment beside PATH and TERM.
func startTerminal(t *testing.T, bin string, args, env []string) *terminal {
	t.Helper()
	return &terminal{t: t, Terminal: ptyterm.Start(t, bin, args, ptyterm.Options{Cols: termCols, Rows: termRows, Env: env, KeepRaw: true})}
}

func (p *terminal) text() string { return p.Text() }

// raw is every byte the program wrote, escape sequences and all: what a
// child wrote before or between frames is there even when painted over.
func (p *terminal) raw() string { return p.Raw() }

// await polls the screen until it holds every one of want.
func (p *terminal) await(what string, limit time.Duration, want ...string) {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		s := p.text()
		missing := ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return
		}
		select {
		case <-p.Done():
			p.t.Fatalf("%s: the program ended first; screen:\n%s", what, s)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: %q not on screen after %s; screen:\n%s", what, missing, limit, s)
		}
	}
}

// awaitRaw waits until the program has written text, on screen or not.
func (p *terminal) awaitRaw(what, text string) {
	p.t.Helper()
	p.until(what, time.Minute, func() bool { return strings.Contains(p.raw(), text) })
}

// awaitScreen waits until ok holds for the screen.
func (p *terminal) awaitScreen(what string, ok func(string) bool) {
	p.t.Helper()
	p.until(what, time.Minute, func() bool { return ok(p.text()) })
}

func (p *terminal) until(what string, limit time.Duration, ok func() bool) {
	p.t.Helper()
	for deadline := time.Now().Add(limit); !ok(); {
		select {
		case <-p.Done():
			p.t.Fatalf("%s: the program ended first; its output: %q", what, p.raw())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: not seen after %s; screen:\n%s", what, limit, p.text())
		}
	}
}

// keys types s into the terminal, one write per key with a short pause, as
// a user types (a burst could be read as one paste).
func (p *terminal) keys(s string) {
	p.t.Helper()
	for _, k := range splitKeys(s) {
		if err := p.Type(k); err != nil {
			p.t.Fatalf("type %q: %v", k, err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// splitKeys keeps an escape sequence whole, every other rune apart.
func splitKeys(s string) []string {
	var out []string
	for s != "" {
		n := len(string([]rune(s)[0]))
		if s[0] == 0x1b && len(s) > 2 && s[1] == '[' {
			n = 3
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
