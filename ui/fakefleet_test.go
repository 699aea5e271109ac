package ui

import (
	"context"
	"sync"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// fakeRestarter is the restart use case's Fleet, recording calls; decision
// and err script its answers. Its rollouts never end by themselves: the
// tests deliver Follow's verdict (followedMsg). It reads nothing: those
// are not available.
type fakeRestarter struct {
	noFleet
	mu       sync.Mutex
	decision model.Decision
	err      error
	checks   []model.Key
	restarts []model.Key
	bounds   []model.Binding
}

func (f *fakeRestarter) CheckRestart(_ context.Context, k model.Key) model.Decision {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks = append(f.checks, k)
	return f.decision
}

func (f *fakeRestarter) RestartWith(_ context.Context, k model.Key, req restart.Request) (restart.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.restarts = append(f.restarts, k)
	f.bounds = append(f.bounds, req.Bound)
	return restart.Result{}, f.err
}

func (f *fakeRestarter) WaitRollout(ctx context.Context, _ model.Key, _ func(model.WorkloadView)) error {
	<-ctx.Done()
	return ctx.Err()
}

func (f *fakeRestarter) restartCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.restarts)
}
