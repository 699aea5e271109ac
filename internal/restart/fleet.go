package restart

import (
	"context"

	"github.com/hanzoai/driftboard/model"
)

// Fleet is what a restart needs of the clusters: the check (scope, RBAC,
// the workload as observed), the bound patch, and the rollout follow.
// kube.Fleet implements it; the use case never sees a Kubernetes client.
type Fleet interface {
	// CheckRestart decides; an allowed decision carries the Binding the
	// confirmation will be given for.
	CheckRestart(ctx context.Context, key model.Key) model.Decision
	// RestartWith patches the workload, refusing when req.Bound differs
	// from what it finds at that moment.
	RestartWith(ctx context.Context, key model.Key, req Request) (Result, error)
	// WaitRollout follows the rollout until it completes, gets stuck or ctx ends.
	WaitRollout(ctx context.Context, key model.Key, progress func(model.WorkloadView)) error
}

// Request is one patch as the fleet receives it.
type Request struct {
	DryRun bool   // server-side dry run: validated and authorized, nothing changes
	Reason string // added to the Event's message
	// Bound is what the confirmation was given for; a zero Binding binds
	// nothing (a fleet's own tests), every use case below sets it.
	Bound model.Binding
}

// Result says what a patch did.
type Result struct {
	Kind       model.WorkloadKind
	Namespace  string
	Name       string
	At         string // hanzo.ai/restartedAt
	By         string // hanzo.ai/restartedBy
	DryRun     bool
	Generation int64 // the workload's generation after the patch
	EventError error // the Event could not be recorded (the restart still happened)
}

// RefusedError is a restart refused before anything was sent.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "restart refused: " + e.Reason }

func refused(reason string) error { return &RefusedError{Reason: reason} }
