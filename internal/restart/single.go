package restart

import (
	"context"
	"errors"
	"fmt"

	"github.com/hanzoai/driftboard/model"
)

// Restarts is the restart use case over one fleet: the plan, the checks,
// the confirmation policy, the bound patch, the set's schedule and the
// rollout follow. The board and the commands only call it.
type Restarts struct {
	fleet  Fleet
	policy Policy
}

// New is the use case over f under p.
func New(f Fleet, p Policy) *Restarts { return &Restarts{fleet: f, policy: p} }

// Refusal is why row cannot be restarted whatever the cluster says
// (read-only, then what the row itself forbids), "" when the fleet must be
// asked. It does no IO.
func (r *Restarts) Refusal(row *model.AppView) string {
	if why := r.policy.readOnly(row.Cluster); why != "" {
		return why
	}
	return model.PlanRestart(row).Blocked
}

// CheckInput is the row a dialog or command is about to offer.
type CheckInput struct{ Row *model.AppView }

// Checked is a row's plan and the fleet's decision; an allowed decision's
// Bound is what a confirmation of it is given for.
type Checked struct {
	Key      model.Key
	Plan     model.RestartPlan
	Decision model.Decision
}

// Check decides whether in.Row may be restarted. A refusal is a
// *RefusedError, and Checked still says the plan and the reason.
func (r *Restarts) Check(ctx context.Context, in CheckInput) (Checked, error) {
	out := Checked{Key: in.Row.Key(), Plan: model.PlanRestart(in.Row)}
	if why := r.Refusal(in.Row); why != "" {
		out.Decision = model.Decision{Reason: why}
		return out, refused(why)
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	out.Decision = r.fleet.CheckRestart(ctx, out.Key)
	if !out.Decision.Allowed {
		if out.Decision.Reason == "" {
			out.Decision.Reason = "refused (no reason given)"
		}
		return out, refused(out.Decision.Reason)
	}
	return out, nil
}

// Input is one confirmed restart: the check the person was shown and what
// they answered.
type Input struct {
	Checked Checked
	Confirm Confirmation // not needed for a dry run
	DryRun  bool
	Reason  string
}

// Output is what the restart did.
type Output struct{ Result Result }

// Restart sends one restart bound to in.Checked: refused when read-only,
// unconfirmed, or when the workload, the actor or the API server differs
// from what the check saw.
func (r *Restarts) Restart(ctx context.Context, in Input) (Output, error) {
	c := in.Checked
	if why := r.policy.readOnly(c.Key.Cluster); why != "" {
		return Output{}, refused(why)
	}
	if !c.Decision.Allowed {
		return Output{}, refused(cmpOr(c.Decision.Reason, "it was never checked"))
	}
	if !in.DryRun {
		if err := ConfirmOne(c.Plan, in.Confirm); err != nil {
			return Output{}, err
		}
	}
	res, err := r.send(ctx, c, in.DryRun, in.Reason)
	return Output{Result: res}, err
}

func (r *Restarts) send(ctx context.Context, c Checked, dryRun bool, reason string) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	return r.fleet.RestartWith(ctx, c.Key, Request{DryRun: dryRun, Reason: reason, Bound: c.Decision.Bound})
}

// FollowInput is a restarted workload to follow.
type FollowInput struct {
	Key      model.Key
	Progress func(model.WorkloadView) // each change of the rollout; may be nil
}

// FollowOutput is how the rollout ended (complete, when err is nil).
type FollowOutput struct{}

// Follow waits for the rollout to complete, at most the policy's rollout
// timeout; stuck, gone or too slow is an error.
func (r *Restarts) Follow(ctx context.Context, in FollowInput) (FollowOutput, error) {
	limit := r.policy.rolloutTimeout()
	fctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	err := r.fleet.WaitRollout(fctx, in.Key, in.Progress)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return FollowOutput{}, fmt.Errorf("rollout of %s/%s not complete after %s: %w", in.Key.Namespace, in.Key.Name, limit, err)
	}
	return FollowOutput{}, err
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
