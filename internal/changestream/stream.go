package changestream

import (
	"context"
	"time"

	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// Source is a fleet that publishes snapshots: Changed signals (coalesced)
// that a new one is worth taking.
type Source interface {
	Snapshot() *store.Snapshot
	Changed() <-chan struct{}
}

// Options shape a stream.
type Options struct {
	Query       query.Query
	ChangesOnly bool             // start with a summary only, no current rows
	Now         func() time.Time // the events' clock
}

// Stream reports first (the synced snapshot) and then every change the
// source shows, until ctx ends or emit fails. It returns emit's error, or
// nil when ctx ended.
func Stream(ctx context.Context, src Source, first *store.Snapshot, opts Options, emit func(Event) error) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	t := NewTracker(opts.Query, opts.ChangesOnly)
	if err := emitAll(t.Observe(first, opts.Now()), emit); err != nil {
		return err
	}
	last := first.Version
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-src.Changed():
		}
		snap := src.Snapshot()
		if snap.Version == last {
			continue
		}
		last = snap.Version
		if err := emitAll(t.Observe(snap, opts.Now()), emit); err != nil {
			return err
		}
	}
}

func emitAll(events []Event, emit func(Event) error) error {
	for _, ev := range events {
		if err := emit(ev); err != nil {
			return err
		}
	}
	return nil
}
