package promote_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// unreadable is a GitHub whose pull requests cannot be listed.
type unreadable struct{ promote.Forge }

func (unreadable) OpenPullRequests(context.Context, promote.Repo, string) ([]promote.PullRequest, error) {
	return nil, errors.New("GitHub answered 502")
}

// A repository whose pull requests cannot be listed makes its rows'
// promotions unknown, each with why; rows without an Application are not.
func TestFindInFlightEachSaysWhyUnknown(t *testing.T) {
	t.Parallel()
	rows := []*model.AppView{request("gateway").Row, request("ledger").Row, {App: "lone", Namespace: "hanzo", Cluster: "prod"}}
	apps := func(string) []*model.CDApplication { return []*model.CDApplication{universeCRs()} }
	found, unknown, err := promote.FindInFlightEach(context.Background(), unreadable{seeded(t)}, onGitHub, rows, apps, model.DefaultPromotionBudgets, time.Now())
	want := "list open pull requests on hanzoai/universe: GitHub answered 502"
	if err == nil || len(found) != 0 || len(unknown) != 2 || unknown[rows[0].Key()] != want || unknown[rows[1].Key()] != want {
		t.Errorf("found %v, unknown %v, err %v", found, unknown, err)
	}
}

// A set's pull request is found again for each App it promotes, from its
// body's line alone; an App left out of the set is not in flight.
func TestFindInFlightFindsSets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	var reqs []promote.Request
	for _, app := range []string{"gateway", "commerce", "iam"} {
		reqs = append(reqs, request(app))
	}
	s, err := promote.PlanSet(ctx, g, onGitHub, reqs)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := promote.ProposeSet(ctx, g, s, promote.Confirmation{Typed: s.SetWords()})
	if err != nil {
		t.Fatal(err)
	}
	rows := []*model.AppView{reqs[0].Row, reqs[1].Row, reqs[2].Row}
	apps := func(string) []*model.CDApplication { return []*model.CDApplication{universeCRs()} }
	found, err := promote.FindInFlight(ctx, g, onGitHub, rows, apps, model.DefaultPromotionBudgets, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rows[:2] {
		if p, ok := found[v.Key()]; !ok || p.PR != pr.Number || p.To != "v1.9.0" || p.Step != model.PromotionOpen {
			t.Errorf("%s: %+v (found %v)", v.App, p, ok)
		}
	}
	if _, ok := found[rows[2].Key()]; ok || len(found) != 2 {
		t.Errorf("iam was refused from the set, yet found: %v", found)
	}
	if got := promote.SetMembers(g.Body(universe, pr.Number)); len(got) != 2 || got[rows[1].Key()] != "v1.9.0" {
		t.Errorf("the body names %v", got)
	}
}

// A promotion merged but not live is found again, as merged, synced or
// rolling, until its release is live; then nothing is in flight. A newer
// open pull request wins over it.
func TestFindInFlightFindsMergedUntilLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	g.SetChecks(universe, 0, promote.ChecksPassed)
	propose := func(app string) promote.PullRequest {
		t.Helper()
		p, err := promote.Plan(ctx, g, onGitHub, request(app))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: app})
		if err != nil {
			t.Fatal(err)
		}
		return pr
	}
	gw := propose("gateway")
	merged, err := g.Merge(ctx, universe, gw.Number, gw.HeadSHA)
	if err != nil {
		t.Fatal(err)
	}
	gateway := request("gateway").Row
	cd := universeCRs()
	apps := func(string) []*model.CDApplication { return []*model.CDApplication{cd} }
	find := func(what string) (model.Promotion, bool) {
		t.Helper()
		found, unknown, err := promote.FindInFlightEach(ctx, g, onGitHub, []*model.AppView{gateway}, apps, model.DefaultPromotionBudgets, clock)
		if err != nil || len(unknown) != 0 {
			t.Fatalf("%s: unknown %v, err %v", what, unknown, err)
		}
		p, ok := found[gateway.Key()]
		return p, ok
	}
	if p, ok := find("merged"); !ok || p.PR != gw.Number || p.To != "v1.9.0" || p.Step != model.PromotionMerged {
		t.Errorf("merged, CD not synced: %+v (found %v)", p, ok)
	}
	cd.Revision = merged.MergeSHA // CD synced, the App declares the tag, the rollout runs
	gateway.DeclaredTag = "v1.9.0"
	gateway.Workload = model.WorkloadView{SpecTag: "v1.9.0", Rollout: model.RolloutProgressing, Desired: 2, Ready: 1}
	if p, ok := find("rolling"); !ok || p.Step != model.PromotionRolling {
		t.Errorf("rolling: %+v (found %v)", p, ok)
	}
	gateway.Workload.Rollout, gateway.Workload.Ready = model.RolloutComplete, 2
	if p, ok := find("live"); ok {
		t.Errorf("live, yet in flight: %+v", p)
	}
	gateway.Workload.Rollout, gateway.Workload.Ready = model.RolloutProgressing, 1
	again := request("gateway")
	again.Row.DeclaredTag, again.Row.RunningTag = "v1.9.0", "v1.9.0"
	again.Releases, again.To = append(again.Releases, model.ReleaseTag{Tag: "v1.9.1"}), "v1.9.1"
	p2, err := promote.Plan(ctx, g, onGitHub, again)
	if err != nil {
		t.Fatal(err)
	}
	newer, err := promote.Propose(ctx, g, p2, promote.Confirmation{Typed: "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := find("a newer open pull request"); !ok || p.PR != newer.Number || p.Step != model.PromotionOpen {
		t.Errorf("the newer open pull request should win: %+v (found %v)", p, ok)
	}
}

// A merge older than MergedLookback is not looked for.
func TestFindInFlightLooksBackADay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	g.SetChecks(universe, 0, promote.ChecksPassed)
	p, err := promote.Plan(ctx, g, onGitHub, request("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Merge(ctx, universe, pr.Number, pr.HeadSHA); err != nil {
		t.Fatal(err)
	}
	rows := []*model.AppView{request("gateway").Row}
	apps := func(string) []*model.CDApplication { return []*model.CDApplication{universeCRs()} }
	for _, tc := range []struct {
		after time.Duration
		found bool
	}{{promote.MergedLookback - time.Minute, true}, {promote.MergedLookback + time.Minute, false}} {
		found, err := promote.FindInFlight(ctx, g, onGitHub, rows, apps, model.DefaultPromotionBudgets, clock.Add(tc.after))
		if _, ok := found[rows[0].Key()]; err != nil || ok != tc.found {
			t.Errorf("%s after the merge: found %v (want %v), err %v", tc.after, ok, tc.found, err)
		}
	}
}
