package cli

import (
	"context"
	"time"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// promotionReadTimeout bounds one read of the rows' promotions, so a slow
// GitHub holds back no event.
const promotionReadTimeout = 20 * time.Second

// watchPromotions reads the rows' promotions for watch: the ones list and
// get carry, and where they cannot be read, why (never nothing).
func (a *app) watchPromotions(fl promoteFleet) func(context.Context, []*model.AppView) changestream.Promotions {
	unknown := func(why string) func(context.Context, []*model.AppView) changestream.Promotions {
		return func(context.Context, []*model.AppView) changestream.Promotions {
			return changestream.Promotions{Why: why}
		}
	}
	eff, err := a.effective()
	if err != nil {
		return unknown("config: " + err.Error())
	}
	forge, repoOf, err := a.forge(eff)
	switch {
	case err != nil:
		return unknown(err.Error())
	case a.forgeFor == nil && !forgeHasToken(forge):
		return unknown("no GitHub token: set GH_TOKEN or run gh auth login")
	}
	return promotionReader(forge, repoOf, fl, promoteBudgets(eff), a.now)
}

// promotionReader reads the promotions in flight from the open pull
// requests of the rows' repositories, one list per repository.
func promotionReader(forge promote.Forge, repoOf promote.RepoParser, fl promoteFleet, b model.PromotionBudgets, now func() time.Time) func(context.Context, []*model.AppView) changestream.Promotions {
	return func(ctx context.Context, rows []*model.AppView) changestream.Promotions {
		ctx, cancel := context.WithTimeout(ctx, promotionReadTimeout)
		defer cancel()
		found, unknown, _ := promote.FindInFlightEach(ctx, forge, repoOf, rows, applicationsOf(fl), b, now())
		return changestream.Promotions{Found: found, Unknown: unknown}
	}
}

// applicationsOf is a cluster's CD Applications as the fleet knows them.
func applicationsOf(fl promoteFleet) func(cluster string) []*model.CDApplication {
	return func(cluster string) []*model.CDApplication {
		a, _ := fl.PromotionLookup(model.Key{Cluster: cluster})
		return a
	}
}
