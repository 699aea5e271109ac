package ui

import (
	"context"
	"reflect"
	"sync"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// fakeRestarter is the restart use case's Fleet, recording calls; decision
// and err script its answers. Its rollouts never end by themselves: the
// tests deliver Follow's verdict (followedMsg).
type fakeRestarter struct {
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

// uc is the restart use case over a fake fleet, read-only as opts say; nil
// for no fleet.
func uc(f restart.Fleet, opts Options) Restarter {
	if f == nil || reflect.ValueOf(f).IsNil() {
		return nil
	}
	return restart.New(f, restart.Policy{ReadOnly: opts.ReadOnly})
}

// withCaps gives src the fake fleet's other capability, as a real source
// carries them.
func withCaps(src Source, f any) Source {
	switch f := f.(type) {
	case EventWatcher:
		return struct {
			Source
			EventWatcher
		}{src, f}
	case DigestReader:
		return struct {
			Source
			DigestReader
		}{src, f}
	case YAMLReader:
		return struct {
			Source
			YAMLReader
		}{src, f}
	case LogReader:
		return struct {
			Source
			LogReader
		}{src, f}
	}
	return src
}

func (f *fakeRestarter) restartCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.restarts)
}
