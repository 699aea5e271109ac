package cli

import (
	"context"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// fleetSource is where the board's fleet comes from: the real API servers,
// reopened when the login changes (loginFleets), or one fleet that stays
// (the demo's simulator, a test's cluster).
type fleetSource interface {
	current() *kube.Fleet
	Changed() <-chan struct{}
}

// oneFleet is a source that is a single kube.Fleet.
type oneFleet struct{ fl *kube.Fleet }

func (o oneFleet) current() *kube.Fleet     { return o.fl }
func (o oneFleet) Changed() <-chan struct{} { return o.fl.Changed() }

// Board is what the board runs on: the fleet it reads and acts through and
// its options, both from the configuration in force.
type Board struct {
	Fleet   ui.Fleet
	Options ui.Options
}

// composeBoard is the one assembly of the board, for the real clusters, the
// demo and the tests alike: only src differs. The board's restarts are the
// restart use case over the same fleet, under the configuration's policy
// (read-only everywhere and per context); its promotions are the promotion
// use case over the same fleet and fs's git host.
func composeBoard(src fleetSource, eff config.Effective, noColor bool, fs forgeSource) Board {
	f := &boardFleet{src: src}
	return Board{Fleet: board{f, restart.New(f, restartPolicy(eff)), promoter(src, eff, fs)}, Options: boardOptions(eff, noColor)}
}

// NewBoard is the board over one fleet (a test's cluster), assembled as
// the driftboard command assembles it; it has no git host to promote
// through.
func NewBoard(fl *kube.Fleet, eff config.Effective) Board {
	return composeBoard(oneFleet{fl}, eff, false, forgeSource{why: "this board has no GitHub to promote through"})
}

// board is the ui.Fleet: the reads from the source's current fleet, the
// restarts and promotions from the use cases over it.
type board struct {
	*boardFleet
	*restart.Restarts
	ui.Promoter
}

// boardFleet forwards every read, and the cluster side of a restart
// (restart.Fleet), to the source's current fleet: one opened for another
// login refuses a binding made on the previous one.
type boardFleet struct{ src fleetSource }

var (
	_ ui.Fleet      = board{}
	_ restart.Fleet = (*boardFleet)(nil)
	_ fleetSource   = (*loginFleets)(nil)
	_ fleetSource   = oneFleet{}
)

func (b *boardFleet) Changed() <-chan struct{}  { return b.src.Changed() }
func (b *boardFleet) Snapshot() *store.Snapshot { return b.src.current().Snapshot() }
func (b *boardFleet) Settled() <-chan struct{}  { return b.src.current().Settled() }

func (b *boardFleet) CheckRestart(ctx context.Context, key model.Key) model.Decision {
	return b.src.current().CheckRestart(ctx, key)
}

func (b *boardFleet) RestartWith(ctx context.Context, key model.Key, req restart.Request) (restart.Result, error) {
	return b.src.current().RestartWith(ctx, key, req)
}

func (b *boardFleet) WaitRollout(ctx context.Context, key model.Key, progress func(model.WorkloadView)) error {
	return b.src.current().WaitRollout(ctx, key, progress)
}

func (b *boardFleet) RunningDigests(ctx context.Context, key model.Key) (model.PodDigests, error) {
	return b.src.current().RunningDigests(ctx, key)
}

// WatchEvents, LogPods, OpenLog and AppYAML read on the fleet of the current
// login (reading is not an action: read-only keeps them).
func (b *boardFleet) WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error) {
	return b.src.current().WatchEvents(ctx, key)
}

func (b *boardFleet) LogPods(ctx context.Context, key model.Key) ([]model.LogPod, error) {
	return b.src.current().LogPods(ctx, key)
}

func (b *boardFleet) OpenLog(ctx context.Context, key model.Key, req model.LogRequest) (*logbuf.Feed, error) {
	return b.src.current().OpenLog(ctx, key, req)
}

func (b *boardFleet) AppYAML(ctx context.Context, key model.Key) (string, error) {
	return b.src.current().AppYAML(ctx, key)
}
