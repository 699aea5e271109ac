//go:build unix

package e2e

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

// terminal is the built board in a real pseudo-terminal: every byte it
// wrote is kept, and fed to a terminal emulator for the screen a user sees.
type terminal struct {
	cmd *exec.Cmd
	tty *os.File

	mu   sync.Mutex
	emu  *vt.Emulator
	all  strings.Builder
	done chan struct{}
}

func startTerminal(t *testing.T, bin string, args, env []string) *terminal {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}, env...)
	const cols, rows = 200, 30
	p := &terminal{cmd: cmd, emu: vt.NewEmulator(cols, rows), done: make(chan struct{})}
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: cols, Rows: rows})
	if err != nil {
		t.Fatalf("start %s in a pty: %v", bin, err)
	}
	p.tty = tty
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tty.Close()
		<-p.done
	})
	go p.answer()
	go p.read()
	return p
}

func (p *terminal) read() {
	defer close(p.done)
	buf := make([]byte, 32<<10)
	for {
		n, err := p.tty.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.all.Write(buf[:n])
			_, _ = p.emu.Write(buf[:n])
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// answer sends the emulator's replies (colour and capability queries) back,
// as a terminal would.
func (p *terminal) answer() {
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

func (p *terminal) raw() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all.String()
}

func (p *terminal) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.emu.String()
}

func (p *terminal) typeText(t *testing.T, s string) {
	t.Helper()
	if _, err := p.tty.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func (p *terminal) awaitRaw(t *testing.T, what, text string) {
	t.Helper()
	p.await(t, what, func() bool { return strings.Contains(p.raw(), text) })
}

func (p *terminal) awaitScreen(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	p.await(t, what, func() bool { return ok(p.screen()) })
}

func (p *terminal) await(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		select {
		case <-p.done:
			t.Fatalf("%s: the board ended first; its output: %q", what, p.raw())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen after 60s; screen:\n%s", what, p.screen())
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
