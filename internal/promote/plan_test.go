package promote_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

func request(app string) promote.Request {
	v := row(app)
	v.Release = model.Release{State: model.ReleaseFound, LatestTag: "v1.9.0"}
	v.Workload.Digests = []string{"sha256:old"}
	return promote.Request{Row: v, Releases: []model.ReleaseTag{{Tag: "v1.9.0", URL: "https://github.com/hanzoai/gateway/releases/tag/v1.9.0", Digest: "sha256:new"}},
		Lookup: promote.Lookup{Applications: []*model.CDApplication{universeCRs()}}, Asker: "ada@hanzo.ai"}
}

func TestPlanShowsWhatWillHappenAndWritesNothing(t *testing.T) {
	t.Parallel()
	g := seeded(t)
	head := g.Head(universe, "main")
	p, err := promote.Plan(context.Background(), g, onGitHub, request("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	want := model.PromotionPlan{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "gateway"}, Env: model.EnvMain,
		From: "v1.8.2", To: "v1.9.0", NotesURL: "https://github.com/hanzoai/gateway/releases/tag/v1.9.0", Digest: "sha256:new",
		Repo: "hanzoai/universe", Base: "main", Path: crsDir + "/gateway-v1.yaml", Line: 13,
		Before: "    tag: v1.8.2 # pinned; see the release notes before moving", After: "    tag: v1.9.0 # pinned; see the release notes before moving",
		Branch: "driftboard/main/gateway-v1.9.0", Title: "gateway: v1.8.2 → v1.9.0 (main, prod)", Login: "octo-engineer", Asker: "ada@hanzo.ai",
		Application: "apps.hanzo.ai/hanzo-cd/universe-crs", MustType: true}
	got := p.PromotionPlan
	got.Body, got.Found = "", ""
	if got != want {
		t.Errorf("plan\n got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(p.Body, "Asked by ada@hanzo.ai (IAM), as GitHub user octo-engineer") || !strings.Contains(p.Found, "universe-crs") {
		t.Errorf("body %q found %q", p.Body, p.Found)
	}
	if g.Head(universe, "main") != head || g.Head(universe, p.Branch) != "" {
		t.Error("planning wrote to the repository")
	}
}

func TestProposeMergeFollow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	base := g.File(universe, "main", crsDir+"/gateway-v1.yaml")
	p, err := promote.Plan(ctx, g, onGitHub, request("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []promote.Confirmation{{}, {Yes: true}, {Yes: true, Typed: "gatewa"}} {
		if _, err := promote.Propose(ctx, g, p, c); !isRefused(err) {
			t.Fatalf("production confirmed by %+v: %v", c, err)
		}
	}
	if g.Head(universe, p.Branch) != "" {
		t.Fatal("a refused confirmation wrote a branch")
	}
	pr, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: "gateway"})
	if err != nil || !again.Reused || again.Number != pr.Number {
		t.Fatalf("second proposal: %+v, %v; want the open one reused", again, err)
	}
	if string(g.File(universe, "main", crsDir+"/gateway-v1.yaml")) != string(base) {
		t.Fatal("the base branch was written")
	}
	onBranch := string(g.File(universe, p.Branch, crsDir+"/gateway-v1.yaml"))
	if onBranch != strings.Replace(string(base), "tag: v1.8.2 #", "tag: v1.9.0 #", 1) {
		t.Fatalf("the branch holds:\n%s", onBranch)
	}
	found, tag, ok, err := promote.InFlight(ctx, g, universe, request("gateway").Row)
	if err != nil || !ok || tag != "v1.9.0" || found.Number != pr.Number {
		t.Fatalf("in flight: %+v %q %v %v", found, tag, ok, err)
	}
	if _, _, ok, _ := promote.InFlight(ctx, g, universe, &model.AppView{App: "gate", Env: model.EnvMain}); ok {
		t.Error("gateway's pull request found as gate's")
	}

	prom := promote.Started(p.Key, p.To, pr, clock)
	if _, err := promote.Merge(ctx, g, pr, p.PromotionPlan, promote.Confirmation{Typed: "gateway"}); !isRefused(err) || !strings.Contains(err.Error(), "pending") {
		t.Fatalf("merge with checks pending: %v", err)
	}
	g.SetChecks(universe, pr.Number, promote.ChecksPassed)
	pr, _ = g.PullRequest(ctx, universe, pr.Number)
	merged, err := promote.Merge(ctx, g, pr, p.PromotionPlan, promote.Confirmation{Typed: "gateway"})
	if err != nil || merged.MergeSHA == "" || g.Head(universe, "main") != merged.MergeSHA {
		t.Fatalf("merge: %+v, %v", merged, err)
	}
	cd := universeCRs()
	prom, err = promote.Follow(ctx, g, universe, prom, promote.Observed{Row: request("gateway").Row, CD: cd}, model.DefaultPromotionBudgets, clock.Add(time.Minute))
	if err != nil || prom.Step != model.PromotionMerged || prom.MergeSHA != merged.MergeSHA {
		t.Fatalf("after the merge: %+v, %v", prom, err)
	}
	cd.Revision = merged.MergeSHA
	prom, _ = promote.Follow(ctx, g, universe, prom, promote.Observed{Row: request("gateway").Row, CD: cd}, model.DefaultPromotionBudgets, clock.Add(2*time.Minute))
	if prom.Step != model.PromotionSynced {
		t.Fatalf("after CD synced: %+v", prom)
	}
}

func TestPlanRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	in := request("gateway")
	in.To = "v3.0.0"
	if _, err := promote.Plan(ctx, seeded(t), onGitHub, in); !isRefused(err) || !strings.Contains(err.Error(), "not a release the board read") {
		t.Errorf("unknown tag: %v", err)
	}
	noToken := demogithub.New("", func() time.Time { return clock })
	if _, err := promote.Plan(ctx, noToken, onGitHub, request("gateway")); !isRefused(err) || !strings.Contains(err.Error(), "no GitHub token") {
		t.Errorf("no token: %v", err)
	}
	g := seeded(t)
	p, err := promote.Plan(ctx, g, onGitHub, request("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	g.DenyMerge("At least 1 approving review is required by reviewers with write access. (405)")
	other, _ := promote.Plan(ctx, g, onGitHub, request("ledger"))
	if _, err := promote.Propose(ctx, g, other, promote.Confirmation{Typed: "ledger"}); err != nil {
		t.Fatal(err)
	}
	pr, _ := g.PullRequest(ctx, universe, 1)
	g.SetChecks(universe, 1, promote.ChecksPassed)
	pr, _ = g.PullRequest(ctx, universe, pr.Number)
	if _, err := promote.Merge(ctx, g, pr, other.PromotionPlan, promote.Confirmation{Typed: "ledger"}); !isRefused(err) || !strings.Contains(err.Error(), "approving review") {
		t.Errorf("merge denied by GitHub: %v", err)
	}
	if other.After != `    tag: "v1.9.0"` || other.From != "18" {
		t.Errorf("ledger: from %q, after %q: git's tag, quotes and CRLF kept", other.From, other.After)
	}
	p.Change.Files[0].OldSHA = "0000"
	if _, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: "gateway"}); !isRefused(err) || !strings.Contains(err.Error(), "changed on main since it was read") {
		t.Errorf("a file changed since the plan: %v", err)
	}
}

func isRefused(err error) bool {
	var r *promote.Refused
	return errors.As(err, &r)
}

// Promotions in flight are found again from the open pull requests alone.
func TestFindInFlight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	p, err := promote.Plan(ctx, g, onGitHub, request("gateway"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := promote.Propose(ctx, g, p, promote.Confirmation{Typed: "gateway"}); err != nil {
		t.Fatal(err)
	}
	rows := []*model.AppView{request("gateway").Row, request("ledger").Row, {App: "lone", Namespace: "hanzo", Cluster: "prod"}}
	apps := func(string) []*model.CDApplication { return []*model.CDApplication{universeCRs()} }
	found, err := promote.FindInFlight(ctx, g, onGitHub, rows, apps, model.DefaultPromotionBudgets, clock.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := found[rows[0].Key()]
	if len(found) != 1 || !ok || got.To != "v1.9.0" || got.Step != model.PromotionOpen || got.PR != 1 || !got.At(model.PromotionOpen).Equal(clock) {
		t.Errorf("found %+v", found)
	}
}

// Without Releases the request targets the row's own release list: any
// listed tag with its notes, and a tag not listed is refused naming the list.
func TestPlanTargetsTheRowsReleaseList(t *testing.T) {
	t.Parallel()
	g := seeded(t)
	in := request("gateway")
	in.Releases = nil
	in.Row.Release.Releases = []model.ReleaseTag{
		{Tag: "v1.10.0-rc.1", URL: "https://github.com/hanzoai/gateway/releases/tag/v1.10.0-rc.1", Prerelease: true},
		{Tag: "v1.9.0", URL: "https://github.com/hanzoai/gateway/releases/tag/v1.9.0"},
	}
	in.To = "v1.10.0-rc.1"
	p, err := promote.Plan(context.Background(), g, onGitHub, in)
	if err != nil {
		t.Fatal(err)
	}
	if p.To != "v1.10.0-rc.1" || p.NotesURL != in.Row.Release.Releases[0].URL || !strings.Contains(p.Body, "Release notes: "+p.NotesURL) {
		t.Errorf("plan to %s, notes %q, body:\n%s", p.To, p.NotesURL, p.Body)
	}
	in.To = "v1.8.9"
	var r *promote.Refused
	if _, err := promote.Plan(context.Background(), g, onGitHub, in); !errors.As(err, &r) || !strings.Contains(r.Reason, "(read: v1.10.0-rc.1, v1.9.0)") {
		t.Errorf("a tag not listed: %v", err)
	}
}
