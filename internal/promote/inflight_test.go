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
