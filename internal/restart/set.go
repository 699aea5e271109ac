package restart

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hanzoai/driftboard/model"
)

// SetPlan is a set of checked rows as its confirmation sees them.
type SetPlan struct {
	Checked    []Checked // in the order they restart
	Allowed    []model.Key
	Refused    map[model.Key]string
	Production bool   // an allowed row is production
	Answer     string // what a person types to confirm (SetAnswer)
}

// PlanSet sorts the checks into allowed and refused. With --yes, a
// production row is refused unless the request named production: the same
// rule as a single restart's.
func PlanSet(checked []Checked, c Confirmation) SetPlan {
	p := SetPlan{Checked: checked, Refused: map[model.Key]string{}}
	for _, ch := range checked {
		switch {
		case !ch.Decision.Allowed:
			p.Refused[ch.Key] = cmpOr(ch.Decision.Reason, "refused (no reason given)")
		case ch.Plan.MustType && c.Yes && !c.ProductionNamed:
			p.Refused[ch.Key] = setProductionRefusal
		default:
			p.Allowed = append(p.Allowed, ch.Key)
			p.Production = p.Production || ch.Plan.MustType
		}
	}
	p.Answer = SetAnswer(len(p.Allowed), p.Production)
	return p
}

// SetInput is a confirmed set.
type SetInput struct {
	Plan            SetPlan
	Confirm         Confirmation // not needed for a dry run
	MaxParallel     int          // at most this many restarts (and, with Follow, rollouts) at once
	ContinueOnError bool         // keep starting after a failure
	DryRun          bool
	Reason          string
	Follow          bool         // hold each slot until its rollout ends
	Report          func(Update) // every status change, serialised; may be nil
}

// SetOutput counts the outcome; Results are the patches that succeeded.
type SetOutput struct {
	Summary Summary
	Results map[model.Key]Result
}

// ErrIncomplete: not every allowed App of a set was restarted.
var ErrIncomplete = errors.New("not every App was restarted")

// RestartSet restarts the plan's allowed rows, each exactly as a single
// restart bound to its own check, at most in.MaxParallel at once. The
// error wraps ErrIncomplete when any failed or was not started.
func (r *Restarts) RestartSet(ctx context.Context, in SetInput) (SetOutput, error) {
	out := SetOutput{Results: map[model.Key]Result{}}
	if !in.DryRun {
		if err := confirmSet(in.Plan, in.Confirm); err != nil {
			return out, err
		}
	}
	byKey := map[model.Key]Checked{}
	for _, c := range in.Plan.Checked {
		byKey[c.Key] = c
	}
	var mu sync.Mutex
	step := func(ctx context.Context, key model.Key, note func(string)) error {
		if why := r.policy.readOnly(key.Cluster); why != "" {
			return refused(why)
		}
		res, err := r.send(ctx, byKey[key], in.DryRun, in.Reason)
		if err != nil {
			return err
		}
		mu.Lock()
		out.Results[key] = res
		mu.Unlock()
		if !in.Follow || in.DryRun {
			return nil
		}
		note("rolling out")
		_, err = r.Follow(ctx, FollowInput{Key: key, Progress: func(v model.WorkloadView) { note(rolloutNote(v)) }})
		if model.IsNotAvailable(err) { // a fleet that cannot follow: the accepted patch ends the slot, saying why
			note(err.Error())
			return nil
		}
		return err
	}
	report := func(u Update) {
		if u.Status == Done {
			mu.Lock()
			u.Result = out.Results[u.Key]
			mu.Unlock()
		}
		if in.Report != nil {
			in.Report(u)
		}
	}
	out.Summary = Run(ctx, in.Plan.Allowed, Options{MaxParallel: in.MaxParallel, ContinueOnError: in.ContinueOnError}, step, report)
	if !out.Summary.OK() {
		if out.Summary.Stopped != "" {
			return out, fmt.Errorf("%w; new starts stopped: %s", ErrIncomplete, out.Summary.Stopped)
		}
		return out, ErrIncomplete
	}
	return out, nil
}

// rolloutNote is a rollout's progress in words.
func rolloutNote(v model.WorkloadView) string {
	state := string(v.Rollout)
	if state == "" {
		state = "-"
	}
	return fmt.Sprintf("rollout: %s, %d/%d updated, %d ready", state, v.Updated, v.Desired, v.Ready)
}
