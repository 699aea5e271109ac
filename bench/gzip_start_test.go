package bench

import (
	"testing"
	"time"
)

// gzipStart is the board's start with gzip asked for, and where its CPU
// went. The main run asks these loopback API servers for plain bytes (the
// default, --compression=auto); a cluster on another machine is asked for
// gzip, which costs the API server and the board CPU to save transfer, so
// this is the start's cost there (k9s and kubectl ask for gzip too).
type gzipStart struct {
	Full time.Duration
	CPU  startCPU
}

func timeGzipStart(b *testing.B, bin string, f *fleetEnv) gzipStart {
	t := boardTool(bin, f)
	w := startCPUWindow(f.clusters)
	p := startPTY(b, bin, append(t.args, "--compression=on"), isolatedEnv(b))
	defer p.stop()
	at := p.await(b, "full board with gzip", 10*time.Minute, t.full)
	return gzipStart{Full: at.Sub(p.started), CPU: w.since(p.pid())}
}
