// Package restart is the restart use case, the one place its rules live:
// the plan and the checks (Check), the confirmation policy (single, set,
// production named), read-only (global and per context), the patch bound
// to what the person confirmed (Restart), the rollout follow with one
// timeout (Follow), and a set's schedule (RestartSet, Run): at most a given
// number at once, in order, stopping new starts at the first failure unless
// told to continue, never starting one after its context ends. The board
// and the commands only call it; the clusters are behind Fleet.
package restart

import (
	"context"
	"sync"

	"github.com/hanzoai/driftboard/model"
)

// Status is where one app of the set stands.
type Status string

const (
	Pending    Status = "pending"     // not started yet
	Running    Status = "running"     // its step has started
	Done       Status = "restarted"   // its step succeeded
	Failed     Status = "failed"      // its step failed
	NotStarted Status = "not-started" // stopped before its turn (a failure, or cancelled)
)

// Step restarts one app (and, if asked, follows its rollout). note reports
// progress in words, e.g. the rollout's state.
type Step func(ctx context.Context, key model.Key, note func(string)) error

// Update is one change of one app's status, in the order they happened.
type Update struct {
	Key    model.Key
	Status Status
	Detail string // progress note, the error, or why it was not started
	Err    error
	Result Result // what the patch did (Done, from RestartSet)
}

// Options tune a run.
type Options struct {
	MaxParallel     int  // at most this many steps at once (minimum 1)
	ContinueOnError bool // keep starting after a failure
}

// Summary counts the outcome.
type Summary struct {
	Done, Failed, NotStarted int
	Stopped                  string // why new starts stopped, "" when every app was started
}

// OK reports whether every app was restarted.
func (s Summary) OK() bool { return s.Failed == 0 && s.NotStarted == 0 }

// Run starts step for each key in order, at most opts.MaxParallel at once,
// and reports every status change through report (calls are serialised).
// After a failure (unless ContinueOnError) or once ctx ends, no new step
// starts and the rest are reported NotStarted; running steps finish.
func Run(ctx context.Context, keys []model.Key, opts Options, step Step, report func(Update)) Summary {
	limit := max(opts.MaxParallel, 1)
	var (
		mu      sync.Mutex
		sum     Summary
		stopped string
		wg      sync.WaitGroup
	)
	emit := func(u Update) {
		mu.Lock()
		defer mu.Unlock()
		switch u.Status {
		case Done:
			sum.Done++
		case Failed:
			sum.Failed++
			if !opts.ContinueOnError && stopped == "" {
				stopped = "a restart failed: " + u.Key.String()
			}
		case NotStarted:
			sum.NotStarted++
		}
		if report != nil {
			report(u)
		}
	}
	stopReason := func() string {
		mu.Lock()
		defer mu.Unlock()
		if stopped == "" && ctx.Err() != nil {
			stopped = "cancelled"
		}
		return stopped
	}
	slots := make(chan struct{}, limit)
	for i, key := range keys {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if why := stopReason(); why != "" {
			for _, k := range keys[i:] {
				emit(Update{Key: k, Status: NotStarted, Detail: "not started: " + why})
			}
			break
		}
		emit(Update{Key: key, Status: Running})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			err := step(ctx, key, func(note string) { emit(Update{Key: key, Status: Running, Detail: note}) })
			if err != nil {
				emit(Update{Key: key, Status: Failed, Detail: err.Error(), Err: err})
				return
			}
			emit(Update{Key: key, Status: Done})
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	sum.Stopped = stopped
	return sum
}
