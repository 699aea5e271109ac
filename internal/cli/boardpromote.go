package cli

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui"
)

// forgeSource is the git host a board's promotions go through: the GitHub
// of the configuration as the user's token (real clusters), the demo's,
// or none (Why says why, and the board shows it).
type forgeSource struct {
	forge  promote.Forge
	repoOf promote.RepoParser
	why    string
}

// promoter is the board's Promoter over src and fs: NoPromotions when
// there is no forge.
func promoter(src fleetSource, eff config.Effective, fs forgeSource) ui.Promoter {
	if fs.forge == nil {
		return ui.NoPromotions{Why: fs.why}
	}
	return &boardPromotions{src: src, eff: eff, forge: fs.forge, repoOf: fs.repoOf, budgets: promoteBudgets(eff),
		plans: map[model.Key]model.PromotionPlan{}}
}

// boardPromotions is the promotion use case over the source's current
// fleet, as the headless command calls it. It remembers what each
// promotion it opened or found was planned on (the repository, the
// Application), which a merge, a sync and a follow need; the rest is read
// again from GitHub and the clusters each time.
type boardPromotions struct {
	src     fleetSource
	eff     config.Effective
	forge   promote.Forge
	repoOf  promote.RepoParser
	budgets model.PromotionBudgets

	mu    sync.Mutex
	plans map[model.Key]model.PromotionPlan
}

var _ ui.Promoter = (*boardPromotions)(nil)

func (b *boardPromotions) row(key model.Key) (*model.AppView, error) {
	if r := b.src.current().Snapshot().Find(key); r != nil {
		return r, nil
	}
	return nil, &promote.Refused{Reason: key.String() + " is not on the board"}
}

func (b *boardPromotions) request(key model.Key, to string) (promote.Request, error) {
	r, err := b.row(key)
	if err != nil {
		return promote.Request{}, err
	}
	fl := b.src.current()
	apps, tracking := fl.PromotionLookup(key)
	return promote.Request{Row: r, To: to, Asker: fl.Asker(),
		Lookup: promote.Lookup{Applications: apps, TrackingID: tracking, Override: fileOverride(b.eff, r)}}, nil
}

func (b *boardPromotions) PlanPromotion(ctx context.Context, key model.Key, to string) (promote.Planned, error) {
	req, err := b.request(key, to)
	if err != nil {
		return promote.Planned{}, err
	}
	return promote.Plan(ctx, b.forge, b.repoOf, req)
}

func (b *boardPromotions) PlanPromotionSet(ctx context.Context, keys []model.Key, to string) (promote.PlannedSet, error) {
	var reqs []promote.Request
	for _, k := range keys {
		req, err := b.request(k, to)
		if err != nil {
			return promote.PlannedSet{}, err
		}
		reqs = append(reqs, req)
	}
	return promote.PlanSet(ctx, b.forge, b.repoOf, reqs)
}

func (b *boardPromotions) ProposePromotion(ctx context.Context, p promote.Planned, c promote.Confirmation) (model.Promotion, error) {
	pr, err := promote.Propose(ctx, b.forge, p, c)
	if err != nil {
		return model.Promotion{}, err
	}
	b.remember(p.PromotionPlan)
	return promote.Started(p.Key, p.To, pr, time.Now()), nil
}

func (b *boardPromotions) ProposePromotionSet(ctx context.Context, s promote.PlannedSet, c promote.Confirmation) ([]model.Promotion, error) {
	pr, err := promote.ProposeSet(ctx, b.forge, s, c)
	if err != nil {
		return nil, err
	}
	var out []model.Promotion
	for _, p := range s.Plans {
		b.remember(p)
		out = append(out, promote.Started(p.Key, p.To, pr, time.Now()))
	}
	return out, nil
}

func (b *boardPromotions) remember(p model.PromotionPlan) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.plans[p.Key] = p
}

// planOf is what p was planned on: remembered, or read again from the
// row's CD Application (a promotion found in flight).
func (b *boardPromotions) planOf(key model.Key) (model.PromotionPlan, promote.Repo, error) {
	b.mu.Lock()
	p, ok := b.plans[key]
	b.mu.Unlock()
	if !ok {
		r, err := b.row(key)
		if err != nil {
			return p, promote.Repo{}, err
		}
		apps, _ := b.src.current().PromotionLookup(key)
		a := applicationNamed(apps, r.Git.Application)
		if a == nil {
			return p, promote.Repo{}, &promote.Refused{Reason: "no CD Application of " + key.String() + " names its repository"}
		}
		repo, err := b.repoOf(a.RepoURL)
		if err != nil {
			return p, promote.Repo{}, err
		}
		p = model.PromotionPlan{Key: key, Env: r.Env, Repo: repo.String(), Application: r.Git.Application,
			Automated: a.Automated, MustType: r.Env.IsProduction()}
		b.remember(p)
	}
	owner, name, _ := strings.Cut(p.Repo, "/")
	return p, promote.Repo{Owner: owner, Name: name}, nil
}

func applicationNamed(apps []*model.CDApplication, id string) *model.CDApplication {
	for _, a := range apps {
		if id != "" && a.Group+"/"+a.Namespace+"/"+a.Name == id {
			return a
		}
	}
	return nil
}

// pullRequest reads the promotion's pull request again.
func (b *boardPromotions) pullRequest(ctx context.Context, prom model.Promotion) (model.PromotionPlan, promote.PullRequest, error) {
	p, repo, err := b.planOf(prom.Key)
	if err != nil {
		return p, promote.PullRequest{}, err
	}
	pr, err := b.forge.PullRequest(ctx, repo, prom.PR)
	if err != nil {
		return p, pr, fmt.Errorf("read pull request #%d on %s: %w", prom.PR, repo, err)
	}
	return p, pr, nil
}

func (b *boardPromotions) MergePromotion(ctx context.Context, prom model.Promotion, c promote.Confirmation) (model.Promotion, error) {
	p, pr, err := b.pullRequest(ctx, prom)
	if err != nil {
		return prom, err
	}
	if _, err := promote.Merge(ctx, b.forge, pr, p, c); err != nil {
		return prom, err
	}
	return b.FollowPromotion(ctx, prom)
}

func (b *boardPromotions) SyncPromotion(ctx context.Context, prom model.Promotion, c promote.Confirmation) (promote.SyncResult, error) {
	p, pr, err := b.pullRequest(ctx, prom)
	if err != nil {
		return promote.SyncResult{}, err
	}
	return promote.Sync(ctx, b.src.current(), p, pr, c, false)
}

func (b *boardPromotions) FollowPromotion(ctx context.Context, prom model.Promotion) (model.Promotion, error) {
	p, repo, err := b.planOf(prom.Key)
	if err != nil {
		return prom, err
	}
	fl := b.src.current()
	apps, _ := fl.PromotionLookup(prom.Key)
	o := promote.Observed{Row: fl.Snapshot().Find(prom.Key), CD: applicationNamed(apps, p.Application), Digest: p.Digest}
	return promote.Follow(ctx, b.forge, repo, prom, o, b.budgets, time.Now())
}

// PromotionsInFlight finds every row's promotion again from the open pull
// requests, one list per repository, as list and watch do.
func (b *boardPromotions) PromotionsInFlight(ctx context.Context) (map[model.Key]model.Promotion, error) {
	fl := b.src.current()
	return promote.FindInFlight(ctx, b.forge, b.repoOf, fl.Snapshot().Rows(), applicationsOf(fl), b.budgets, time.Now())
}

// boardForge is the configured GitHub as the user's own token; a
// configuration it cannot be built from leaves the board without
// promotions, saying why.
func (a *app) boardForge(eff config.Effective) forgeSource {
	f, repoOf, err := a.forge(eff)
	if err != nil {
		return forgeSource{why: err.Error()}
	}
	return forgeSource{forge: f, repoOf: repoOf}
}
