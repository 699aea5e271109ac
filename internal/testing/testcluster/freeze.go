package testcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// FreezeAPIServer stops the API server with SIGSTOP (it keeps its sockets,
// the kernel still accepts connections, nothing answers) and returns once
// every one of its threads is stopped. kill(2) returns as soon as the signal
// is queued: the kernel wakes one thread to take it, and until that thread
// runs (on a loaded machine, or while it waits on disk for the audit log)
// the others go on serving requests. The returned resume sends SIGCONT; it
// also runs when the test ends, and only its first call acts.
func (c *Cluster) FreezeAPIServer() (resume func()) {
	c.t.Helper()
	pid := c.APIServerPID()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		c.fatalf("testcluster: SIGSTOP the API server: %v", err)
	}
	resumed := false
	resume = func() {
		if !resumed {
			resumed = true
			if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
				c.t.Errorf("testcluster: SIGCONT the API server: %v", err)
			}
		}
	}
	c.t.Cleanup(resume)
	deadline := time.Now().Add(30 * time.Second)
	for {
		running, err := runningThreads(pid)
		if err != nil {
			c.fatalf("testcluster: API server threads: %v", err)
		}
		if running == 0 {
			return resume
		}
		if time.Now().After(deadline) {
			c.fatalf("testcluster: %d API server threads still run 30 s after SIGSTOP", running)
		}
		time.Sleep(time.Millisecond)
	}
}

// runningThreads counts the threads of pid that are not stopped, from the
// state field of /proc/<pid>/task/<tid>/stat ("T": stopped by a signal).
func runningThreads(pid int) (int, error) {
	stats, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	if err != nil {
		return 0, err
	}
	if len(stats) == 0 {
		return 0, fmt.Errorf("no threads listed for pid %d", pid)
	}
	running := 0
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue // the thread ended
		}
		if err != nil {
			return 0, err
		}
		// "tid (comm) S ...": comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || i+2 >= len(s) {
			return 0, fmt.Errorf("%s: unexpected %q", p, s)
		}
		if s[i+2] != 'T' {
			running++
		}
	}
	return running, nil
}
