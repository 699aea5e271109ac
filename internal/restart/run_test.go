package restart

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

func keys(n int) []model.Key {
	out := make([]model.Key, n)
	for i := range out {
		out[i] = model.Key{Cluster: "c", Namespace: "ns", Name: fmt.Sprintf("app-%02d", i)}
	}
	return out
}

// inflight counts concurrent steps and remembers the highest count.
type inflight struct {
	mu       sync.Mutex
	now, max int
	started  []string
}

func (f *inflight) step(fail map[string]bool) Step {
	return func(ctx context.Context, k model.Key, note func(string)) error {
		f.mu.Lock()
		f.now++
		f.max = max(f.max, f.now)
		f.started = append(f.started, k.Name)
		f.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		note("rolling")
		f.mu.Lock()
		f.now--
		f.mu.Unlock()
		if fail[k.Name] {
			return errors.New("boom")
		}
		return nil
	}
}

func TestRunRespectsTheLimit(t *testing.T) {
	t.Parallel()
	f := &inflight{}
	var updates []Update
	sum := Run(context.Background(), keys(12), Options{MaxParallel: 3}, f.step(nil), func(u Update) { updates = append(updates, u) })
	if f.max > 3 || f.max < 2 {
		t.Errorf("at most %d steps ran at once, want 3 (and never more)", f.max)
	}
	if !sum.OK() || sum.Done != 12 || len(f.started) != 12 {
		t.Errorf("summary %+v, started %d", sum, len(f.started))
	}
	if len(updates) != 36 { // running, a note, done
		t.Errorf("%d updates, want 36", len(updates))
	}
}

func TestRunStopsNewStartsAfterAFailure(t *testing.T) {
	t.Parallel()
	f := &inflight{}
	sum := Run(context.Background(), keys(12), Options{MaxParallel: 1}, f.step(map[string]bool{"app-04": true}), nil)
	if len(f.started) != 5 || sum.Done != 4 || sum.Failed != 1 || sum.NotStarted != 7 || sum.Stopped == "" {
		t.Fatalf("started %v, summary %+v; want 5 started, 4 done, 1 failed, 7 not started", f.started, sum)
	}
	f = &inflight{}
	sum = Run(context.Background(), keys(12), Options{MaxParallel: 3, ContinueOnError: true}, f.step(map[string]bool{"app-04": true}), nil)
	if len(f.started) != 12 || sum.Done != 11 || sum.Failed != 1 || sum.NotStarted != 0 || sum.OK() {
		t.Fatalf("continue-on-error: started %d, summary %+v", len(f.started), sum)
	}
}

func TestRunStartsNothingAfterCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	f := &inflight{}
	step := f.step(nil)
	sum := Run(ctx, keys(12), Options{MaxParallel: 1}, func(c context.Context, k model.Key, note func(string)) error {
		if k.Name == "app-02" {
			cancel() // like quitting mid-way
		}
		return step(c, k, note)
	}, nil)
	if len(f.started) != 3 || sum.NotStarted != 9 || sum.Stopped != "cancelled" {
		t.Fatalf("started %v, summary %+v; want 3 started, 9 not started, stopped: cancelled", f.started, sum)
	}
}
