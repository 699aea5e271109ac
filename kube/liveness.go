package kube

import (
	"context"
	"sync/atomic"
	"time"
)

// Live means data flows. A frozen API server (stopped process, partition,
// hung control plane) keeps its connections open and sends nothing, so no
// call fails and the reflectors never notice. The cluster therefore listens:
// any watch event or list/watch call that succeeds is "heard"; when nothing
// was heard for pingAfter, one cheap GET /livez (no LIST) asks; when nothing
// was heard for silenceLimit the cluster is unresponsive and its rows stale,
// until anything is heard again.
const (
	// silenceLimit stays under the rule's 45 s so that, with the check
	// tick, rows are marked stale within 45 s of a freeze.
	silenceLimit = 40 * time.Second
	pingAfter    = 10 * time.Second
	pingTimeout  = 5 * time.Second
	livenessTick = 2 * time.Second
)

// hearing is the lock-free part of connState: event handlers call heard()
// on every event, so it must cost an atomic store.
type hearing struct {
	at   atomic.Int64 // unix nanos of the last sign of life
	deaf atomic.Bool  // the cluster is marked unresponsive
}

// heard records a sign of life, and lifts the unresponsive phase.
func (c *connState) heard() {
	c.hear.at.Store(c.now().UnixNano())
	if c.hear.deaf.Load() {
		c.update(func() {
			c.hear.deaf.Store(false)
			c.unresponsive = false
		})
	}
}

// silentFor is how long nothing was heard.
func (c *connState) silentFor() time.Duration {
	at := c.hear.at.Load()
	if at == 0 {
		return 0
	}
	return c.now().Sub(time.Unix(0, at))
}

// checkSilence marks the cluster unresponsive once silent too long, and
// reports whether it is.
func (c *connState) checkSilence() bool {
	silent := c.silentFor()
	if silent < silenceLimit || c.hear.deaf.Load() {
		return c.hear.deaf.Load()
	}
	last := time.Unix(0, c.hear.at.Load())
	c.update(func() {
		c.hear.deaf.Store(true)
		c.unresponsive, c.heardAt = true, last
	})
	return true
}

// watchLiveness runs until ctx ends, from the first lists on: pings a
// silent cluster, and marks it unresponsive when even the ping does not
// answer (before the sync, that settles it: WaitSynced says so).
func (c *cluster) watchLiveness(ctx context.Context) {
	c.conn.heard() // the lists start now
	t := time.NewTicker(livenessTick)
	defer t.Stop()
	var pinging atomic.Bool
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !c.readDirect() { // read through Karmada's proxy: heard of through its calls, or stale for its state
			c.conn.heard()
			continue
		}
		if c.conn.silentFor() >= pingAfter && pinging.CompareAndSwap(false, true) {
			go func() {
				defer pinging.Store(false)
				if c.ping(ctx) == nil {
					c.conn.heard()
				}
			}()
		}
		if c.conn.checkSilence() && !c.isSynced() {
			c.markSettled()
		}
	}
}

// readDirect says whether the cluster is read from its own API server:
// not a Karmada member read through the proxy.
func (c *cluster) readDirect() bool {
	p := c.clients.proxy
	if p == nil {
		return true
	}
	direct, _ := p.feeds.reading(p.name)
	return direct
}

// ping asks the API server's /livez with a short timeout.
func (c *cluster) ping(ctx context.Context) error {
	rc := c.clients.Kube.Discovery().RESTClient()
	if rc == nil {
		return nil // client fakes have no REST client: nothing to ask
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	return rc.Get().AbsPath("/livez").Do(ctx).Error()
}

// unresponsiveReason says since when nothing was heard.
func unresponsiveReason(since time.Time) string {
	return "no watch event and no answer to a health check since " + since.Format("15:04:05")
}
