package changestream

import (
	"context"
	"time"

	"github.com/hanzoai/driftboard/model"
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
	// Promotions reads the rows' promotions in flight, at the start and
	// every PromotionPoll (default 30s); nil leaves them out of the events.
	Promotions    func(context.Context, []*model.AppView) Promotions
	PromotionPoll time.Duration
}

// Stream reports first (the synced snapshot) and then every change the
// source shows, until ctx ends or emit fails. It returns emit's error, or
// nil when ctx ended.
func Stream(ctx context.Context, src Source, first *store.Snapshot, opts Options, emit func(Event) error) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	t := NewTracker(opts.Query, opts.ChangesOnly)
	var poll <-chan time.Time
	if opts.Promotions != nil {
		if opts.PromotionPoll <= 0 {
			opts.PromotionPoll = 30 * time.Second
		}
		tick := time.NewTicker(opts.PromotionPoll)
		defer tick.Stop()
		poll = tick.C
		t.SetPromotions(opts.Promotions(ctx, first.Rows()))
	}
	if err := emitAll(t.Observe(first, opts.Now()), emit); err != nil {
		return err
	}
	last := first.Version
	for {
		var snap *store.Snapshot
		select {
		case <-ctx.Done():
			return nil
		case <-poll: // a pull request moves without the fleet changing
			snap = src.Snapshot()
			t.SetPromotions(opts.Promotions(ctx, snap.Rows()))
		case <-src.Changed():
			if snap = src.Snapshot(); snap.Version == last {
				continue
			}
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
