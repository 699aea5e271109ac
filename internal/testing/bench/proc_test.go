package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is USER_HZ, the unit of /proc/<pid>/stat CPU times on Linux.
const clockTick = 10 * time.Millisecond

// processCPU is the user+system CPU a process has used so far (10 ms steps).
func processCPU(pid int) time.Duration {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) start at ") ".
	rest := string(data[bytes.LastIndexByte(data, ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * clockTick
}

// machineCPU is the CPU every process on the machine has used so far, and
// the number of CPUs (from /proc/stat's first line), to tell how busy the
// machine was while the board started.
func machineCPU() (time.Duration, int) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	var busy int64
	cpus := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "cpu") {
			continue
		}
		if f[0] != "cpu" {
			cpus++
			continue
		}
		for j, v := range f[1:] {
			if j == 3 || j == 4 || j >= 8 { // idle, iowait; guest time is in user already
				continue
			}
			n, _ := strconv.ParseInt(v, 10, 64)
			busy += n
		}
	}
	return time.Duration(busy) * clockTick, cpus
}
