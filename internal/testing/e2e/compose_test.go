package e2e

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/cli"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui"
)

// boardOf is the board over f assembled as the driftboard command assembles
// it (default configuration); set fixes what the test needs (clock,
// background, query…).
func boardOf(f *kube.Fleet, id ui.Identity, set func(*ui.Options)) tea.Model {
	b := cli.NewBoard(f, config.Effective{})
	set(&b.Options)
	return ui.New(b.Fleet, id, b.Options)
}

// rowsOnly is a fleet of rows from a store and nothing else, for the tests
// of the terminal alone; every other capability is not available. Its
// restarts go through the restart use case, like every fleet's.
type rowsOnly struct{ *storeSource }

// rowsOnlyFleet is the board's Fleet over a store of rows.
func rowsOnlyFleet(s *storeSource) ui.Fleet {
	f := rowsOnly{s}
	return struct {
		rowsOnly
		*restart.Restarts
		ui.NoPromotions
	}{f, restart.New(f, restart.Policy{}), ui.NoPromotions{Why: rowsOnlyWhy}}
}

var _ restart.Fleet = rowsOnly{}

const rowsOnlyWhy = "a store of rows only"

func (rowsOnly) CheckRestart(context.Context, model.Key) model.Decision {
	return model.Decision{Reason: model.NotAvailable("restarts", rowsOnlyWhy).Error()}
}

func (rowsOnly) RestartWith(context.Context, model.Key, restart.Request) (restart.Result, error) {
	return restart.Result{}, model.NotAvailable("restarts", rowsOnlyWhy)
}
func (rowsOnly) WaitRollout(context.Context, model.Key, func(model.WorkloadView)) error {
	return model.NotAvailable("rollouts", rowsOnlyWhy)
}

func (rowsOnly) RunningDigests(context.Context, model.Key) (model.PodDigests, error) {
	return model.PodDigests{}, model.NotAvailable("pod digests", rowsOnlyWhy)
}

func (rowsOnly) WatchEvents(context.Context, model.Key) (<-chan []model.Event, error) {
	return nil, model.NotAvailable("Events", rowsOnlyWhy)
}

func (rowsOnly) LogPods(context.Context, model.Key) ([]model.LogPod, error) {
	return nil, model.NotAvailable("logs", rowsOnlyWhy)
}

func (rowsOnly) OpenLog(context.Context, model.Key, model.LogRequest) (*logbuf.Feed, error) {
	return nil, model.NotAvailable("logs", rowsOnlyWhy)
}

func (rowsOnly) AppYAML(context.Context, model.Key) (string, error) {
	return "", model.NotAvailable("YAML", rowsOnlyWhy)
}
