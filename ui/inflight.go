package ui

import (
	"time"

	"github.com/hanzoai/driftboard/model"
)

// inflight is one restart from the request to the end of its rollout, so
// the row shows progress and a second "r" does not fire again. When the
// rollout ends is the restart use case's verdict (Follow), not the row's.
type inflight struct {
	key         model.Key
	started     time.Time
	requested   bool   // the API accepted the patch
	prevRestart string // workload restartedAt before our request
	sawProgress bool   // the rollout has been seen progressing (or restartedAt changed)
}

// observe notes from the app's current row whether the restart's rollout
// has shown up yet (the row says "restarting…" until it does).
func (f *inflight) observe(r *model.AppView) {
	if r == nil || !f.requested {
		return
	}
	if w := r.Workload; w.RestartedAt != f.prevRestart || w.Rollout == model.RolloutProgressing {
		f.sawProgress = true
	}
}
