// Package changestream turns the fleet's snapshots into the event stream of
// `driftboard watch`: first the rows as they are, then one event per observed
// change of a row's verdict or a cluster's state. Deciding what changed is
// pure (Tracker); the kube layer supplies the snapshots.
package changestream

import (
	"slices"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// Kind is what an event reports.
type Kind string

const (
	KindCurrent Kind = "current" // a row as first seen (at start, or when its cluster first syncs)
	KindSummary Kind = "summary" // the initial rows are complete
	KindAdded   Kind = "added"   // a row appeared
	KindChanged Kind = "changed" // a row's verdict changed
	KindDeleted Kind = "deleted" // a row disappeared
	KindCluster Kind = "cluster" // a cluster's connection state changed
)

// Verdict is what the board says about one row: the fields whose change is
// an event. Unknown health and no rollout are spelled out, never "".
// Verdict is the row's mark as the board shows it (model.AppView.Verdict),
// Severity the drift's own, so an alert on "verdict" fires for a crash
// loop or a missing workload that drifts in nothing.
type Verdict struct {
	ID          string   `json:"id"`
	Env         string   `json:"env"`
	Verdict     string   `json:"verdict"`
	Unknown     []string `json:"unknown,omitempty"` // what was not observed
	Severity    string   `json:"severity"`
	Flags       []string `json:"flags"`
	DeclaredTag string   `json:"declaredTag"`
	RunningTag  string   `json:"runningTag"`
	LatestTag   string   `json:"latestTag"`
	Health      string   `json:"health"`
	Rollout     string   `json:"rollout"`
	// Git is the row's git sync state and its Application, absent where
	// the cluster serves no Application kind.
	Git *model.GitSync `json:"git,omitempty"`
	// Promotion is the row's promotion in flight, "none" or "unknown" with
	// why; absent where promotions are not read.
	Promotion *PromotionView `json:"promotion,omitempty"`
}

// VerdictOf extracts a row's verdict.
func VerdictOf(v *model.AppView) Verdict {
	flags := make([]string, 0, len(v.Drift.Flags))
	for _, f := range v.Drift.Flags {
		flags = append(flags, model.FlagWords.Of(f.Kind).Name)
	}
	sev := v.Drift.Severity
	if sev == "" {
		sev = drift.SeverityOK
	}
	health, rollout := model.HealthWords.Of(v.Health).Name, string(v.Workload.Rollout)
	if v.Workload.Rollout == model.RolloutNone {
		rollout = "none"
	}
	vd := v.Verdict()
	out := Verdict{ID: v.ID, Env: string(v.Env), Verdict: vd.Mark.String(), Unknown: vd.Unknown.Names(), Severity: string(sev), Flags: flags,
		DeclaredTag: v.DeclaredTag, RunningTag: v.RunningTag, LatestTag: v.LatestTag,
		Health: health, Rollout: rollout}
	if v.Git.State != "" && v.Git.KindServed() {
		g := v.Git
		out.Git = &g
	}
	return out
}

// sameGit compares git states by value (the last sync included: a new
// sync is an observed change).
func sameGit(a, b *model.GitSync) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	if (x.LastSync == nil) != (y.LastSync == nil) || (x.LastSync != nil && *x.LastSync != *y.LastSync) {
		return false
	}
	x.LastSync, y.LastSync = nil, nil
	return x == y
}

// Changes names the verdict fields that differ, in a fixed order; nil when equal.
func (a Verdict) Changes(b Verdict) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("verdict", a.Verdict != b.Verdict)
	add("unknown", !slices.Equal(a.Unknown, b.Unknown))
	add("severity", a.Severity != b.Severity)
	add("flags", !slices.Equal(a.Flags, b.Flags))
	add("declaredTag", a.DeclaredTag != b.DeclaredTag)
	add("runningTag", a.RunningTag != b.RunningTag)
	add("latestTag", a.LatestTag != b.LatestTag)
	add("health", a.Health != b.Health)
	add("rollout", a.Rollout != b.Rollout)
	add("git", !sameGit(a.Git, b.Git))
	add("promotion", !samePromotion(a.Promotion, b.Promotion))
	add("id", a.ID != b.ID)
	add("env", a.Env != b.Env)
	return out
}

// ClusterView is a cluster's state as an event carries it.
type ClusterView struct {
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// ClusterSummary is one cluster in a summary event.
type ClusterSummary struct {
	Name string `json:"name"`
	ClusterView
}

// Event is one line of the stream. Row events carry cluster, namespace, app
// and before/after verdicts (before is absent for current and added, after
// for deleted); cluster events carry the cluster and its states; the summary
// carries the counts and every cluster's state.
type Event struct {
	Time      time.Time        `json:"time"`
	Event     Kind             `json:"event"`
	Cluster   string           `json:"cluster,omitempty"`
	Namespace string           `json:"namespace,omitempty"`
	App       string           `json:"app,omitempty"`
	Changed   []string         `json:"changed,omitempty"`
	Before    any              `json:"before,omitempty"` // *Verdict or *ClusterView
	After     any              `json:"after,omitempty"`  // *Verdict or *ClusterView
	Summary   *store.Summary   `json:"summary,omitempty"`
	Clusters  []ClusterSummary `json:"clusters,omitempty"`
}
