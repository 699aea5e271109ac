package ui

import (
	"fmt"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// giveUpAfter ends the following of a restart whose rollout never shows up,
// so the in-flight guard cannot block the app forever.
const giveUpAfter = 15 * time.Minute

// inflight follows one restart from the request to the end of its rollout,
// so the row shows progress and a second "r" does not fire again.
type inflight struct {
	key         model.Key
	started     time.Time
	requested   bool   // the API accepted the patch
	prevRestart string // workload restartedAt before our request
	sawProgress bool   // the rollout has been seen progressing (or restartedAt changed)
}

// outcome is how a followed rollout ended, as words for the status line.
type outcome struct {
	done bool
	msg  string
	bad  bool
}

// observe updates f from the app's current row and says whether the
// restart's rollout has finished (complete or stuck).
func (f *inflight) observe(r *model.AppView, now time.Time) outcome {
	name := f.key.Namespace + "/" + f.key.Name
	if r == nil {
		return outcome{done: true, bad: true, msg: "app " + name + " disappeared during its restart"}
	}
	if !f.requested {
		return outcome{}
	}
	w := r.Workload
	if w.RestartedAt != f.prevRestart || w.Rollout == model.RolloutProgressing {
		f.sawProgress = true
	}
	if !f.sawProgress {
		if now.Sub(f.started) > giveUpAfter {
			return outcome{done: true, bad: true, msg: fmt.Sprintf("restart of %s: no rollout seen after %s; check the workload", name, shortDuration(giveUpAfter))}
		}
		return outcome{}
	}
	took := shortDuration(now.Sub(f.started))
	switch w.Rollout {
	case model.RolloutComplete:
		return outcome{done: true, msg: fmt.Sprintf("restart of %s complete: %d/%d ready (%s)", name, w.Ready, w.Desired, took)}
	case model.RolloutStuck:
		why := w.Message
		if why == "" {
			why = "no progress"
		}
		return outcome{done: true, bad: true, msg: fmt.Sprintf("restart of %s stuck: %s", name, why)}
	}
	return outcome{}
}
