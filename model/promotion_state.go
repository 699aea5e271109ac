package model

import (
	"fmt"
	"slices"
	"time"
)

// A promotion's state is read from what was observed, never assumed: the
// pull request as GitHub reports it, the CD Application's sync revision and
// last operation, the App CR's declared tag, the workload's rollout and the
// digests its pods run.

// PromotionStep is where a promotion stands.
type PromotionStep string

const (
	PromotionOpen     PromotionStep = "pr-open"  // checks pending, passed or none
	PromotionMerged   PromotionStep = "merged"   // the merge commit is known
	PromotionSynced   PromotionStep = "synced"   // CD synced the merge commit
	PromotionDeclared PromotionStep = "declared" // the App CR declares the tag
	PromotionRolling  PromotionStep = "rolling"  // the workload rolls to it
	PromotionRunning  PromotionStep = "running"  // every pod runs the release's digest
	PromotionLive     PromotionStep = "live"     // running, every replica ready

	// The exits: the promotion stopped there.
	PromotionClosed        PromotionStep = "pr-closed" // closed without a merge
	PromotionChecksFailed  PromotionStep = "checks-failed"
	PromotionSyncFailed    PromotionStep = "sync-failed"
	PromotionRolloutFailed PromotionStep = "rollout-failed"
)

// promotionOrder is the steps in the order they are reached.
var promotionOrder = []PromotionStep{PromotionOpen, PromotionMerged, PromotionSynced, PromotionDeclared, PromotionRolling, PromotionRunning, PromotionLive}

// Exit reports whether s ends a promotion short of live.
func (s PromotionStep) Exit() bool {
	return s == PromotionClosed || s == PromotionChecksFailed || s == PromotionSyncFailed || s == PromotionRolloutFailed
}

// PromotionBudgets bound the steps; a step over its budget makes the
// promotion late, with the reason.
type PromotionBudgets struct {
	Review  time.Duration // opened → merged
	Sync    time.Duration // merged → synced
	Rollout time.Duration // declared → live
}

// DefaultPromotionBudgets are the budgets the config does not set.
var DefaultPromotionBudgets = PromotionBudgets{Review: 24 * time.Hour, Sync: 10 * time.Minute, Rollout: 15 * time.Minute}

// PullRequestFacts is a promotion's pull request as GitHub reported it.
type PullRequestFacts struct {
	Number   int       `json:"number"`
	URL      string    `json:"url"`
	State    string    `json:"state"`  // open | merged | closed
	Checks   string    `json:"checks"` // none | pending | success | failure | unknown
	MergeSHA string    `json:"mergeSHA,omitempty"`
	OpenedAt time.Time `json:"openedAt"`
	MergedAt time.Time `json:"mergedAt,omitzero"`
	ClosedAt time.Time `json:"closedAt,omitzero"`
}

// PromotionFacts is everything observed that a promotion's state is read from.
type PromotionFacts struct {
	PR  PullRequestFacts
	CD  *CDApplication // the Application that syncs the file; nil when none does
	Row *AppView       // nil when the row is not on the board
	// Digest is the release's digest; "" when not read (running is then
	// read from the tag, and the promotion says so).
	Digest string
}

// StepAt is when a step was first observed.
type StepAt struct {
	Step PromotionStep `json:"step"`
	At   time.Time     `json:"at"`
}

// Promotion is one promotion's state, as the row, the detail and the
// commands show it.
type Promotion struct {
	Key    Key           `json:"key"`
	To     string        `json:"to"`
	PR     int           `json:"pr"`
	URL    string        `json:"url"`
	Step   PromotionStep `json:"step"`
	Checks string        `json:"checks,omitempty"`
	// MergeSHA is the merge commit CD must sync to.
	MergeSHA string   `json:"mergeSHA,omitempty"`
	Steps    []StepAt `json:"steps"`
	Late     string   `json:"late,omitempty"` // the reason a step is over its budget
	Why      string   `json:"why,omitempty"`  // an exit's reason, or a note on the step
	// Unread: the last attempt to read it again failed (why); the rest is
	// what was observed before, not now.
	Unread string `json:"unread,omitempty"`
	// LeadTime is opened → live, set once live.
	LeadTime time.Duration `json:"leadTime,omitempty"`
}

// At is when step was first observed (zero: not reached).
func (p Promotion) At(step PromotionStep) time.Time {
	for _, s := range p.Steps {
		if s.Step == step {
			return s.At
		}
	}
	return time.Time{}
}

// FollowPromotion is p's next state from the facts observed at now; the
// times of the steps reached before are kept.
func FollowPromotion(p Promotion, f PromotionFacts, b PromotionBudgets, now time.Time) Promotion {
	p.PR, p.URL, p.Checks, p.MergeSHA = f.PR.Number, f.PR.URL, f.PR.Checks, f.PR.MergeSHA
	p.Late, p.Why = "", ""
	reach := func(s PromotionStep, at time.Time) {
		if at.IsZero() {
			at = now
		}
		if p.At(s).IsZero() {
			p.Steps = append(p.Steps, StepAt{s, at})
		}
		p.Step = s
	}
	reach(PromotionOpen, f.PR.OpenedAt)
	switch f.PR.State {
	case "closed":
		reach(PromotionClosed, f.PR.ClosedAt)
		p.Why = "the pull request was closed without a merge"
		return p
	case "open":
		if f.PR.Checks == "failure" {
			reach(PromotionChecksFailed, now)
			p.Why = "the pull request's checks failed"
		} else if age := now.Sub(p.At(PromotionOpen)); age > b.Review {
			p.Late = fmt.Sprintf("PR waiting for review for %s", roundAge(age))
		}
		return p
	}
	reach(PromotionMerged, f.PR.MergedAt)
	followDeploy(&p, f, b, now, reach)
	if p.Step == PromotionLive {
		p.LeadTime = p.At(PromotionLive).Sub(p.At(PromotionOpen))
	}
	return p
}

// followDeploy carries a merged promotion through CD, the App CR and the
// rollout.
func followDeploy(p *Promotion, f PromotionFacts, b PromotionBudgets, now time.Time, reach func(PromotionStep, time.Time)) {
	v := f.Row
	declared := v != nil && v.DeclaredTag == p.To
	if cd := f.CD; cd != nil {
		synced := cd.Revision != "" && cd.Revision == p.MergeSHA
		switch {
		case synced || declared:
			at := time.Time{}
			if synced && cd.Operation.FinishedAt.After(p.At(PromotionMerged)) {
				at = cd.Operation.FinishedAt
			}
			reach(PromotionSynced, at)
		case (cd.Operation.Phase == "Failed" || cd.Operation.Phase == "Error") && cd.Operation.FinishedAt.After(p.At(PromotionMerged)):
			reach(PromotionSyncFailed, cd.Operation.FinishedAt)
			p.Why = "CD's sync failed: " + cd.Operation.Message
			return
		default:
			if age := now.Sub(p.At(PromotionMerged)); age > b.Sync {
				p.Late = fmt.Sprintf("CD not synced %s after the merge", roundAge(age))
			}
			return
		}
	}
	if !declared {
		return
	}
	reach(PromotionDeclared, time.Time{})
	w := v.Workload
	if v.Upgrade != nil && v.Upgrade.Phase == "Failed" {
		reach(PromotionRolloutFailed, time.Time{})
		p.Why = "the operator's upgrade failed; the workload stays on " + orNone(v.Upgrade.LastGoodImage)
		return
	}
	if w.Rollout == RolloutStuck && slices.ContainsFunc(w.Conditions, func(c Condition) bool { return c.Reason == "ProgressDeadlineExceeded" }) {
		reach(PromotionRolloutFailed, time.Time{})
		p.Why = "the rollout exceeded its progress deadline: " + w.Message
		return
	}
	reach(PromotionRolling, time.Time{})
	if runsRelease(w, p.To, f.Digest) {
		reach(PromotionRunning, time.Time{})
		if f.Digest == "" {
			p.Why = "read from the tag: the release's digest was not read"
		}
		if w.Rollout == RolloutComplete && w.Desired > 0 && w.Ready >= w.Desired {
			reach(PromotionLive, time.Time{})
			return
		}
	}
	age := now.Sub(p.At(PromotionDeclared))
	switch {
	case slices.ContainsFunc(v.Problems, func(pr Problem) bool { return pr.Kind == ProblemPodsFailing }):
		p.Late = "pods failing: " + v.Problems[slices.IndexFunc(v.Problems, func(pr Problem) bool { return pr.Kind == ProblemPodsFailing })].Text
	case age > b.Rollout:
		p.Late = fmt.Sprintf("rollout stuck for %s", roundAge(age))
	}
}

// runsRelease reports whether every pod runs the release: its digest when
// read, else its tag with the rollout complete.
func runsRelease(w WorkloadView, tag, digest string) bool {
	if digest == "" {
		return w.SpecTag == tag && w.Rollout == RolloutComplete
	}
	if len(w.Digests) == 0 {
		return false
	}
	for _, d := range w.Digests {
		if d != digest {
			return false
		}
	}
	return true
}

// roundAge is an age to the second below a minute, else to the minute.
func roundAge(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}

// Next is the step that follows s on the way to live ("" after live or at
// an exit).
func (s PromotionStep) Next() PromotionStep {
	i := slices.Index(promotionOrder, s)
	if i < 0 || i+1 == len(promotionOrder) {
		return ""
	}
	return promotionOrder[i+1]
}
