package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
)

// Environment variables that profile a whole run (go tool pprof <binary> <file>):
// the way to see where the board's time and memory go on a real fleet.
const (
	cpuProfileEnv  = "DRIFTBOARD_CPUPROFILE"  // CPU, from start to exit
	heapProfileEnv = "DRIFTBOARD_HEAPPROFILE" // live heap as the board quits (else at exit), after a GC
)

// startProfiles starts what the environment asks for; stop writes it out.
// A profile that cannot be written is said on stderr, never fatal.
func startProfiles(getenv func(string) string, stderr io.Writer) (stop func()) {
	var cpu *os.File
	if path := getenv(cpuProfileEnv); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", cpuProfileEnv, err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			_ = cpu.Close()
		}
		writeHeapProfile(getenv, stderr)
	}
}

var heapProfileWritten atomic.Bool

// writeHeapProfile writes the live heap once per run, after a GC. The
// board writes it as it quits, while its fleet is still live (at exit the
// caches are already released and the profile shows none of them).
func writeHeapProfile(getenv func(string) string, stderr io.Writer) {
	path := getenv(heapProfileEnv)
	if path == "" || !heapProfileWritten.CompareAndSwap(false, true) {
		return
	}
	runtime.GC()
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		_ = f.Close()
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", heapProfileEnv, err)
	}
}
