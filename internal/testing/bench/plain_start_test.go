package bench

import (
	"testing"
	"time"
)

// plainStart is the board's start with gzip turned off (--compression=off),
// and where its CPU went, beside the main run's start with gzip (the
// default, as kubectl's): on these loopback API servers gzip saves no
// transfer, so this shows what it costs each side.
type plainStart struct {
	Full time.Duration
	CPU  startCPU
}

func timePlainStart(b *testing.B, bin string, f *fleetEnv) plainStart {
	t := boardTool(bin, f)
	w := startCPUWindow(b, "the start without gzip", f, f.clusters)
	p := startPTY(b, bin, append(t.args, "--compression=off"), isolatedEnv(b))
	defer p.Stop()
	at := p.await(b, "full board without gzip", 10*time.Minute, t.full)
	return plainStart{Full: at.Sub(p.Started()), CPU: w.since(p.pid())}
}
