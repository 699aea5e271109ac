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
