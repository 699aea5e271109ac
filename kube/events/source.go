// Package events reads the Events about one App — the App, its workload,
// the workload's ReplicaSets and their pods — once or followed by watches,
// kept bounded and merged newest first, each restart look-alike checked
// against the workload's last restart. It knows the cluster only through
// the Source it is given: the namespace's Events client and what the
// cluster's cache says of the App's workload now.
package events

import (
	"context"

	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/hanzoai/driftboard/model"
)

// What a restart's Event says of itself (kube's restart records it so).
// Anyone who may create Events can say the same: an Event is checked
// against the restart annotation the patch wrote (its hanzo.ai/restartedAt,
// copied onto the Event).
const (
	RestartReason     = "Restarted"
	RestartController = "hanzo.ai/driftboard"
	RestartInstance   = "driftboard" // its reporting instance and source component
)

// Source is the App whose Events are read, and how to read them.
type Source struct {
	Events  typedcorev1.EventInterface // the App's namespace's
	Key     model.Key
	AppKind string // the App's kind: "App" or "Service"
	// Workload is the App's workload as the cluster's cache has it now;
	// nil when it has none.
	Workload func() *Workload
	// ReplicaSets are the names of the workload's ReplicaSets in the cache.
	ReplicaSets func() []string
	// Identity names who the cluster knows the board as, for a refusal
	// (asked once per cluster); Explain shortens an API error for the
	// board, keeping it as the cause.
	Identity func(ctx context.Context) string
	Explain  func(error) error
}

// Workload is what the Events are matched against of the App's workload.
type Workload struct {
	Kind        model.WorkloadKind
	UID         string
	RestartedAt string // its pod template's hanzo.ai/restartedAt
}
