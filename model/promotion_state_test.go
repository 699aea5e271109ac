package model

import (
	"strings"
	"testing"
	"time"
)

func TestFollowPromotionSteps(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	merge := "1111111111111111111111111111111111111111"
	open := PullRequestFacts{Number: 7, URL: "https://github.com/hanzoai/universe/pull/7", State: "open", Checks: "pending", OpenedAt: t0}
	merged := open
	merged.State, merged.Checks, merged.MergeSHA, merged.MergedAt = "merged", "success", merge, t0.Add(time.Hour)
	cd := func(rev, phase string, at time.Time) *CDApplication {
		return &CDApplication{Name: "universe-crs", Revision: rev, Operation: CDOperation{Phase: phase, Message: "boom", FinishedAt: at}}
	}
	row := func(declared, spec string, rollout RolloutState, digests ...string) *AppView {
		return &AppView{DeclaredTag: declared, Workload: WorkloadView{SpecTag: spec, Rollout: rollout, Desired: 2, Ready: 2, Digests: digests}}
	}
	tests := []struct {
		name string
		f    PromotionFacts
		now  time.Duration // after t0
		step PromotionStep
		late string
		why  string
	}{
		{"open, checks pending", PromotionFacts{PR: open}, time.Hour, PromotionOpen, "", ""},
		{"open too long", PromotionFacts{PR: open}, 25 * time.Hour, PromotionOpen, "PR waiting for review for 25h0m0s", ""},
		{"checks failed", PromotionFacts{PR: func() PullRequestFacts { p := open; p.Checks = "failure"; return p }()}, time.Hour, PromotionChecksFailed, "", "checks failed"},
		{"closed", PromotionFacts{PR: func() PullRequestFacts { p := open; p.State, p.ClosedAt = "closed", t0.Add(time.Minute); return p }()}, time.Hour, PromotionClosed, "", "closed without a merge"},
		{"merged, CD behind", PromotionFacts{PR: merged, CD: cd("0000000", "Succeeded", t0)}, time.Hour + 5*time.Minute, PromotionMerged, "", ""},
		{"merged, CD behind too long", PromotionFacts{PR: merged, CD: cd("0000000", "Succeeded", t0)}, 2 * time.Hour, PromotionMerged, "CD not synced 1h0m0s after the merge", ""},
		{"sync failed after the merge", PromotionFacts{PR: merged, CD: cd("0000000", "Failed", t0.Add(61*time.Minute))}, 2 * time.Hour, PromotionSyncFailed, "", "CD's sync failed: boom"},
		{"an older failed sync is not this one's", PromotionFacts{PR: merged, CD: cd("0000000", "Failed", t0)}, time.Hour + time.Minute, PromotionMerged, "", ""},
		{"synced, App not yet", PromotionFacts{PR: merged, CD: cd(merge, "Succeeded", t0.Add(62*time.Minute)), Row: row("v1.8.2", "v1.8.2", RolloutComplete)}, 2 * time.Hour, PromotionSynced, "", ""},
		{"declared, rolling", PromotionFacts{PR: merged, CD: cd(merge, "Succeeded", t0), Row: row("v1.9.0", "v1.9.0", RolloutProgressing, "sha256:old"), Digest: "sha256:new"}, 2 * time.Hour, PromotionRolling, "", ""},
		{"a newer commit synced: the App declares it", PromotionFacts{PR: merged, CD: cd("2222222", "Succeeded", t0), Row: row("v1.9.0", "v1.9.0", RolloutProgressing)}, 2 * time.Hour, PromotionRolling, "", ""},
		{"running, not all ready", PromotionFacts{PR: merged, Row: func() *AppView {
			v := row("v1.9.0", "v1.9.0", RolloutProgressing, "sha256:new")
			v.Workload.Ready = 1
			return v
		}(), Digest: "sha256:new"}, 2 * time.Hour, PromotionRunning, "", ""},
		{"live by digest", PromotionFacts{PR: merged, CD: cd(merge, "Succeeded", t0), Row: row("v1.9.0", "v1.9.0", RolloutComplete, "sha256:new"), Digest: "sha256:new"}, 2 * time.Hour, PromotionLive, "", ""},
		{"live by tag, said so", PromotionFacts{PR: merged, Row: row("v1.9.0", "v1.9.0", RolloutComplete, "sha256:new")}, 2 * time.Hour, PromotionLive, "", "read from the tag"},
		{"upgrade failed", PromotionFacts{PR: merged, Row: func() *AppView {
			v := row("v1.9.0", "v1.8.2", RolloutComplete)
			v.Upgrade = &Upgrade{Phase: "Failed", LastGoodImage: "gw:v1.8.2"}
			return v
		}()}, 2 * time.Hour, PromotionRolloutFailed, "", "stays on gw:v1.8.2"},
		{"progress deadline", PromotionFacts{PR: merged, Row: func() *AppView {
			v := row("v1.9.0", "v1.9.0", RolloutStuck)
			v.Workload.Conditions = []Condition{{Type: "Progressing", Reason: "ProgressDeadlineExceeded"}}
			return v
		}()}, 2 * time.Hour, PromotionRolloutFailed, "", "progress deadline"},
		{"pods crash-looping", PromotionFacts{PR: merged, Row: func() *AppView {
			v := row("v1.9.0", "v1.9.0", RolloutProgressing)
			v.Problems = []Problem{{Kind: ProblemPodsFailing, Text: "CrashLoopBackOff: gateway-7d9f-x2"}}
			return v
		}(), Digest: "sha256:new"}, 2 * time.Hour, PromotionRolling, "pods failing: CrashLoopBackOff: gateway-7d9f-x2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := FollowPromotion(Promotion{To: "v1.9.0"}, tt.f, DefaultPromotionBudgets, t0.Add(tt.now))
			if p.Step != tt.step || p.Late != tt.late || !strings.Contains(p.Why, tt.why) || (tt.why == "") != (p.Why == "") {
				t.Errorf("step %s late %q why %q; want %s %q %q", p.Step, p.Late, p.Why, tt.step, tt.late, tt.why)
			}
		})
	}
}

// Each step keeps the time it was first observed; opened → live is its lead time.
func TestFollowPromotionTimesAndLeadTime(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	pr := PullRequestFacts{Number: 7, State: "merged", Checks: "success", MergeSHA: "abc", OpenedAt: t0, MergedAt: t0.Add(30 * time.Minute)}
	cd := &CDApplication{Revision: "abc", Operation: CDOperation{Phase: "Succeeded", FinishedAt: t0.Add(32 * time.Minute)}}
	v := &AppView{DeclaredTag: "v1.8.2", Workload: WorkloadView{SpecTag: "v1.8.2", Rollout: RolloutComplete, Desired: 1, Ready: 1, Digests: []string{"sha256:old"}}}
	p := FollowPromotion(Promotion{To: "v1.9.0"}, PromotionFacts{PR: pr, CD: cd, Row: v, Digest: "sha256:new"}, DefaultPromotionBudgets, t0.Add(33*time.Minute))
	if p.Step != PromotionSynced || !p.At(PromotionSynced).Equal(t0.Add(32*time.Minute)) || !p.At(PromotionMerged).Equal(t0.Add(30*time.Minute)) {
		t.Fatalf("synced at %v, merged at %v: %+v", p.At(PromotionSynced), p.At(PromotionMerged), p)
	}
	v2 := *v
	v2.DeclaredTag, v2.Workload.SpecTag, v2.Workload.Digests = "v1.9.0", "v1.9.0", []string{"sha256:new"}
	p = FollowPromotion(p, PromotionFacts{PR: pr, CD: cd, Row: &v2, Digest: "sha256:new"}, DefaultPromotionBudgets, t0.Add(40*time.Minute))
	if p.Step != PromotionLive || p.LeadTime != 40*time.Minute || !p.At(PromotionSynced).Equal(t0.Add(32*time.Minute)) {
		t.Fatalf("step %s lead %v synced %v", p.Step, p.LeadTime, p.At(PromotionSynced))
	}
	if len(p.Steps) != 7 {
		t.Errorf("steps %+v, want all seven once", p.Steps)
	}
}
