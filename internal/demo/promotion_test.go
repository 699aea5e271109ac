package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// A promotion end to end on the demo: its GitHub holds the App CRs, the
// pull request changes one line, its checks pass, the merge is synced by
// the demo's CD as the sync operation asks, the operator rolls the new tag
// and the promotion is followed to live.
func TestDemoPromotionEndToEnd(t *testing.T) {
	d, snap := startDemo(t, Options{Seed: 1, Speed: 20, Quiet: true, HealthyReleases: true})
	var row *model.AppView
	for _, r := range snap.Rows() {
		if r.Kind == "App" && r.Cluster == "demo" && r.Git.State == model.GitSynced && r.Release.Checked() && r.LatestTag != "" &&
			r.LatestTag != r.DeclaredTag && drift.IsSemverTag(r.DeclaredTag) && r.Health == model.HealthGreen && r.Workload.Rollout == model.RolloutComplete &&
			r.Env != model.EnvMain {
			row = r
			break
		}
	}
	if row == nil {
		t.Fatal("no demo row to promote")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	fl := d.Fleet()
	apps, tracking := fl.PromotionLookup(row.Key())
	repoOf := func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }
	p, err := promote.Plan(ctx, d.GitHub(), repoOf, promote.Request{Row: row, To: "latest", Asker: "ops@hanzo.ai",
		Lookup: promote.Lookup{Applications: apps, TrackingID: tracking}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Login != DemoLogin || p.Path != crFile(d.sim.apps[row.Cluster+"/"+row.Namespace+"/"+row.App]) || !strings.Contains(p.After, p.To) {
		t.Fatalf("plan %+v", p.PromotionPlan)
	}
	pr, err := promote.Propose(ctx, d.GitHub(), p, promote.Confirmation{Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	for pr.Checks == promote.ChecksPending {
		time.Sleep(50 * time.Millisecond)
		if pr, err = d.GitHub().PullRequest(ctx, Universe, pr.Number); err != nil || ctx.Err() != nil {
			t.Fatalf("checks never passed: %v %v", err, ctx.Err())
		}
	}
	if pr, err = promote.Merge(ctx, d.GitHub(), pr, p.PromotionPlan, promote.Confirmation{Yes: true}); err != nil {
		t.Fatal(err)
	}
	res, err := promote.Sync(ctx, fl, p.PromotionPlan, pr, promote.Confirmation{Yes: true}, false)
	if err != nil || res.Refresh || res.By == "" {
		t.Fatalf("sync: %+v, %v", res, err)
	}
	prom := promote.Started(p.Key, p.To, pr, time.Now())
	waitSnapshot(t, d, 60*time.Second, func(s *store.Snapshot) bool {
		var cd *model.CDApplication
		apps, _ := fl.PromotionLookup(p.Key)
		for _, a := range apps {
			if a.Group+"/"+a.Namespace+"/"+a.Name == p.Application {
				cd = a
			}
		}
		prom, err = promote.Follow(ctx, d.GitHub(), Universe, prom, promote.Observed{Row: findRow(s, p.Key), CD: cd}, model.DefaultPromotionBudgets, time.Now())
		return err == nil && (prom.Step == model.PromotionLive || prom.Step.Exit())
	}, "the promotion of "+p.Key.String()+" to end")
	if prom.Step != model.PromotionLive || prom.At(model.PromotionSynced).IsZero() || prom.LeadTime <= 0 {
		t.Errorf("promotion ended %+v", prom)
	}
}
