package testcluster

import "time"

// Process is a server run as the control plane's are: in its own process
// group, dying with the test binary, its output appended to a log file.
// Harnesses that start servers of their own beside a Cluster (Karmada's)
// use it.
type Process struct{ p process }

// NewProcess is the binary at path, named name, logging to logPath.
func NewProcess(name, path, logPath string, args ...string) *Process {
	return &Process{p: process{name: name, path: path, logPath: logPath, args: args}}
}

func (p *Process) Name() string    { return p.p.name }
func (p *Process) LogPath() string { return p.p.logPath }
func (p *Process) Start() error    { return p.p.start() }

// Exited reports whether a started process has ended, with its status.
func (p *Process) Exited() (bool, error) { return p.p.exited() }

// Stop signals the process group with SIGTERM, then SIGKILL after grace
// (at once when zero), and waits for the exit.
func (p *Process) Stop(grace time.Duration) { p.p.stop(grace) }

// Tail is the last n lines of its log.
func (p *Process) Tail(n int) string { return p.p.tail(n) }

// PID is the running process's id, 0 before it started.
func (p *Process) PID() int {
	if p.p.cmd == nil || p.p.cmd.Process == nil {
		return 0
	}
	return p.p.cmd.Process.Pid
}

// FreePorts asks the kernel for n distinct unused loopback ports.
func FreePorts(n int) ([]int, error) { return freePorts(n) }
