package ui

import (
	"context"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/model/store"
)

// noFleet stands in for a missing Fleet: an empty board, every capability
// not available, never a panic. Its restarts go through the use case like
// any fleet's, which reports the check's "not available".
type noFleet struct{}

// emptyFleet is the board's Fleet when it is given none.
type emptyFleet struct {
	noFleet
	*restart.Restarts
	NoPromotions
}

func newEmptyFleet() Fleet {
	return emptyFleet{Restarts: restart.New(noFleet{}, restart.Policy{}), NoPromotions: NoPromotions{Why: noFleetWhy}}
}

var (
	_ Fleet         = emptyFleet{}
	_ restart.Fleet = noFleet{}
)

const noFleetWhy = "the board has no fleet"

// settled is closed: a board without clusters has nothing to wait for.
var settled = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (noFleet) Changed() <-chan struct{} { return nil }
func (noFleet) Settled() <-chan struct{} { return settled }
func (noFleet) Snapshot() *store.Snapshot {
	s := store.NewSnapshot(nil)
	s.Summary = store.Summarize(nil)
	return s
}

func (noFleet) CheckRestart(context.Context, model.Key) model.Decision {
	return model.Decision{Reason: model.NotAvailable("restarts", noFleetWhy).Error()}
}

func (noFleet) RestartWith(context.Context, model.Key, restart.Request) (restart.Result, error) {
	return restart.Result{}, model.NotAvailable("restarts", noFleetWhy)
}

func (noFleet) WaitRollout(context.Context, model.Key, func(model.WorkloadView)) error {
	return model.NotAvailable("rollouts", noFleetWhy)
}

func (noFleet) RunningDigests(context.Context, model.Key) (model.PodDigests, error) {
	return model.PodDigests{}, model.NotAvailable("pod digests", noFleetWhy)
}

func (noFleet) WatchEvents(context.Context, model.Key) (<-chan []model.Event, error) {
	return nil, model.NotAvailable("Events", noFleetWhy)
}

func (noFleet) LogPods(context.Context, model.Key) ([]model.LogPod, error) {
	return nil, model.NotAvailable("logs", noFleetWhy)
}

func (noFleet) OpenLog(context.Context, model.Key, model.LogRequest) (*logbuf.Feed, error) {
	return nil, model.NotAvailable("logs", noFleetWhy)
}

func (noFleet) AppYAML(context.Context, model.Key) (string, error) {
	return "", model.NotAvailable("YAML", noFleetWhy)
}
