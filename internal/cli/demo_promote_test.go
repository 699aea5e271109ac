package cli

import (
	"context"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// driftboard demo's promotion through what the board is given (p, y, m, S
// call these): the pull request opened in the demo's GitHub, merged once
// its checks passed there, the demo's CD syncing the merge commit, and the
// row followed until it runs the release.
func TestDemoPromotionThroughTheBoard(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Seed: 1, Speed: 60, Apps: 20, HealthyReleases: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	uc := composeBoard(oneFleet{d.Fleet()}, config.Effective{}, true, demoForge(d)).Fleet
	select {
	case <-uc.Settled():
	case <-ctx.Done():
		t.Fatal("the demo never settled")
	}
	var plan promote.Planned
	for _, r := range uc.Snapshot().Rows() {
		if p, err := uc.PlanPromotion(ctx, r.Key(), ""); err == nil && !p.MustType {
			plan = p
			break
		}
	}
	if plan.Key.Name == "" {
		t.Fatal("no row of the demo plans a promotion")
	}
	if who := d.Principal(); who == nil || plan.Asker == "" || (plan.Asker != who.Email && plan.Asker != who.User) {
		t.Fatalf("the plan names %q as who asked, want the demo's IAM user %+v", plan.Asker, who)
	}
	prom, err := uc.ProposePromotion(ctx, plan, promote.Confirmation{Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	// follow reads the promotion again until done says so.
	follow := func(what string, done func(model.Promotion) bool) {
		t.Helper()
		for !done(prom) {
			if ctx.Err() != nil {
				t.Fatalf("%s never came: %+v", what, prom)
			}
			time.Sleep(100 * time.Millisecond)
			if prom, err = uc.FollowPromotion(ctx, prom); err != nil {
				t.Fatal(err)
			}
			if prom.Step.Exit() {
				t.Fatalf("waiting for %s, the promotion stopped: %+v", what, prom)
			}
		}
	}
	if _, err := uc.MergePromotion(ctx, prom, promote.Confirmation{Yes: true}); err == nil && prom.Checks != string(promote.ChecksPassed) {
		t.Fatalf("merged before its checks passed (%s)", prom.Checks)
	}
	follow("checks passed", func(p model.Promotion) bool { return p.Checks == string(promote.ChecksPassed) })
	if prom, err = uc.MergePromotion(ctx, prom, promote.Confirmation{Yes: true}); err != nil {
		t.Fatal(err)
	}
	if prom.Step != model.PromotionMerged || prom.MergeSHA == "" {
		t.Fatalf("after the merge: %+v", prom)
	}
	res, err := uc.SyncPromotion(ctx, prom, promote.Confirmation{Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != prom.MergeSHA || res.By == "" {
		t.Fatalf("the sync asked %+v, want the merge commit %s and who asked", res, prom.MergeSHA)
	}
	follow("live", func(p model.Promotion) bool { return p.Step == model.PromotionLive })
	for _, s := range []model.PromotionStep{model.PromotionOpen, model.PromotionMerged, model.PromotionSynced, model.PromotionDeclared, model.PromotionLive} {
		if prom.At(s).IsZero() {
			t.Errorf("the row never showed %s: %+v", s, prom.Steps)
		}
	}
	if r := uc.Snapshot().Find(plan.Key); r == nil || r.RunningTag != plan.To {
		t.Errorf("%s runs %v, want %s", plan.Key, r, plan.To)
	}
}
