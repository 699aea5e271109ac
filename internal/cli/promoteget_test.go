package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// lookupOnly is a fleet that knows its Applications and syncs nothing.
type lookupOnly []*model.CDApplication

func (l lookupOnly) PromotionLookup(model.Key) ([]*model.CDApplication, string) { return l, "" }
func (lookupOnly) SyncApplication(context.Context, model.Key, promote.SyncRequest) (promote.SyncResult, error) {
	return promote.SyncResult{}, &promote.SyncRefused{Reason: "not here"}
}

// get carries a row's promotion in flight, found from the pull requests
// alone, in its JSON and its detail: open, and merged but not live.
func TestGetCarriesThePromotionInFlight(t *testing.T) {
	ctx := context.Background()
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", map[string]string{"crs/gateway-v1.yaml": gatewayCR})
	fl := lookupOnly{{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs",
		RepoURL: "https://github.com/hanzoai/universe", Path: "crs", TargetRevision: "main"}}
	row := &model.AppView{App: "gateway", Namespace: "hanzo", Cluster: "test", Env: model.EnvTest, Kind: "App", DeclaredTag: "v1.8.2", LatestTag: "v1.9.0",
		Release: model.Release{State: model.ReleaseFound}, Git: model.GitSync{Application: "apps.hanzo.ai/hanzo-cd/universe-crs"}}
	repoOf := func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }
	if got := promotionsOnRows(ctx, g, repoOf, fl, []*model.AppView{row}, model.DefaultPromotionBudgets)[0]; got.Promotion != nil {
		t.Fatalf("a promotion before any pull request: %+v", got.Promotion)
	}
	p, err := promote.Plan(ctx, g, repoOf, promote.Request{Row: row, To: "latest", Lookup: promote.Lookup{Applications: fl}})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := promote.Propose(ctx, g, p, promote.Confirmation{Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	got := promotionsOnRows(ctx, g, repoOf, fl, []*model.AppView{row}, model.DefaultPromotionBudgets)[0]
	if got.Promotion == nil || got.Promotion.Step != model.PromotionOpen || got.Promotion.To != "v1.9.0" || row.Promotion != nil {
		t.Fatalf("promotion %+v (the row given kept as it was: %v)", got.Promotion, row.Promotion)
	}
	var out bytes.Buffer
	if err := writeDetail(&out, got, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Promotion:") || !strings.Contains(out.String(), "pr-open to v1.9.0, pull request #1 https://github.com/hanzoai/universe/pull/1") {
		t.Errorf("detail:\n%s", out.String())
	}
	g.SetChecks(universe, pr.Number, promote.ChecksPassed)
	if _, err := g.Merge(ctx, universe, pr.Number, pr.HeadSHA); err != nil {
		t.Fatal(err)
	}
	got = promotionsOnRows(ctx, g, repoOf, fl, []*model.AppView{row}, model.DefaultPromotionBudgets)[0]
	if got.Promotion == nil || got.Promotion.Step != model.PromotionMerged || got.Promotion.PR != pr.Number {
		t.Fatalf("merged, not declared yet: promotion %+v", got.Promotion)
	}
}
