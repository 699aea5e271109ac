package ui

import (
	"context"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// NoPromotions is the Promoter of a source that has no git host to
// promote through (no forge configured, a test's fleet): every method
// answers *model.NotAvailableError with Why, which the board shows.
type NoPromotions struct{ Why string }

var _ Promoter = NoPromotions{}

func (n NoPromotions) na() error { return model.NotAvailable("promotions", n.Why) }

func (n NoPromotions) PlanPromotion(context.Context, model.Key, string) (promote.Planned, error) {
	return promote.Planned{}, n.na()
}

func (n NoPromotions) PlanPromotionSet(context.Context, []model.Key, string) (promote.PlannedSet, error) {
	return promote.PlannedSet{}, n.na()
}

func (n NoPromotions) ProposePromotion(context.Context, promote.Planned, promote.Confirmation) (model.Promotion, error) {
	return model.Promotion{}, n.na()
}

func (n NoPromotions) ProposePromotionSet(context.Context, promote.PlannedSet, promote.Confirmation) ([]model.Promotion, error) {
	return nil, n.na()
}

func (n NoPromotions) MergePromotion(context.Context, model.Promotion, promote.Confirmation) (model.Promotion, error) {
	return model.Promotion{}, n.na()
}

func (n NoPromotions) SyncPromotion(context.Context, model.Promotion, promote.Confirmation) (promote.SyncResult, error) {
	return promote.SyncResult{}, n.na()
}

func (n NoPromotions) FollowPromotion(context.Context, model.Promotion) (model.Promotion, error) {
	return model.Promotion{}, n.na()
}

func (n NoPromotions) PromotionsInFlight(context.Context) (map[model.Key]model.Promotion, error) {
	return nil, n.na()
}
