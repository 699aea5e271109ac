package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// stepPromoter records the merges and syncs asked, answering mergeErr as
// GitHub would have said it.
type stepPromoter struct {
	fakePromoter
	merged   []promote.Confirmation
	synced   []promote.Confirmation
	mergeErr error
}

func (f *stepPromoter) MergePromotion(_ context.Context, p model.Promotion, c promote.Confirmation) (model.Promotion, error) {
	f.merged = append(f.merged, c)
	if f.mergeErr != nil {
		return p, f.mergeErr
	}
	p.Step, p.MergeSHA = model.PromotionMerged, "0123456789abcdef0123"
	p.Steps = append(p.Steps, model.StepAt{Step: model.PromotionMerged, At: t0})
	return p, nil
}

func (f *stepPromoter) SyncPromotion(_ context.Context, p model.Promotion, c promote.Confirmation) (promote.SyncResult, error) {
	f.synced = append(f.synced, c)
	return promote.SyncResult{Application: "hanzo/cd/universe", Revision: p.MergeSHA, By: "alice@hanzo.ai"}, nil
}

// stepModel is the board with app selected and a promotion of it kept at
// step with checks.
func stepModel(t *testing.T, p *stepPromoter, app string, step model.PromotionStep, checks string) *Model {
	t.Helper()
	m := newPromoteModel(t, &p.fakePromoter)
	m.fleet = testFleet{m.fleet.(testFleet).Source, noFleet{}, m.fleet.(testFleet).Restarter, p}
	typeText(m, "/"+app)
	press(m, "enter")
	k := m.board.Selected().Key()
	m.keepPromotions(model.Promotion{Key: k, To: "v1.0.0", PR: 7, URL: "https://github.com/hanzoai/universe/pull/7",
		Step: step, Checks: checks, Steps: []model.StepAt{{Step: model.PromotionOpen, At: t0}}})
	return m
}

// m merges the row's pull request once asked (default No), S asks CD to
// sync the merge commit; each says so and the row follows on.
func TestPromoteMergeThenSync(t *testing.T) {
	p := &stepPromoter{}
	m := stepModel(t, p, "explorer", model.PromotionOpen, "success")
	press(m, "m")
	if v := plainView(m); !strings.Contains(v, "Merge pull request #7?") {
		t.Fatalf("m does not ask:\n%s", v)
	}
	press(m, "enter") // the default is No
	if len(p.merged) != 0 || !strings.Contains(plainView(m), "merge of hanzo-testnet/explorer declined") {
		t.Fatalf("enter merged %+v:\n%s", p.merged, plainView(m))
	}
	press(m, "m", "y")
	if len(p.merged) != 1 || !p.merged[0].Yes {
		t.Fatalf("y merged %+v", p.merged)
	}
	if v := plainView(m); !strings.Contains(v, "pull request #7 merged (0123456789ab)") || promoteCol(t, m, "explorer") != "merged" {
		t.Fatalf("after the merge:\n%s", v)
	}
	press(m, "S")
	if v := plainView(m); !strings.Contains(v, "Ask CD to sync 0123456789ab?") {
		t.Fatalf("S does not ask:\n%s", v)
	}
	press(m, "y")
	if len(p.synced) != 1 || !p.synced[0].Yes {
		t.Fatalf("y synced %+v", p.synced)
	}
	if v := plainView(m); !strings.Contains(v, "CD asked to sync hanzo/cd/universe to 0123456789ab as alice@hanzo.ai") {
		t.Fatalf("after the sync:\n%s", v)
	}
}

// Checks not passed: m says so and asks nothing; S before the merge too.
func TestPromoteMergeWaitsForChecks(t *testing.T) {
	p := &stepPromoter{}
	m := stepModel(t, p, "explorer", model.PromotionOpen, "pending")
	press(m, "m")
	if v := plainView(m); !strings.Contains(v, "pull request #7's checks are pending: it is merged once they pass") || strings.Contains(v, "Merge pull request") {
		t.Fatalf("m with checks pending:\n%s", v)
	}
	press(m, "S")
	if v := plainView(m); !strings.Contains(v, "pull request #7 is not merged: there is no revision to sync") {
		t.Fatalf("S before the merge:\n%s", v)
	}
	if len(p.merged)+len(p.synced) != 0 {
		t.Fatalf("merged %+v synced %+v", p.merged, p.synced)
	}
}

// Production: the name typed; GitHub's refusal shown as it said it.
func TestPromoteMergeProductionRefused(t *testing.T) {
	p := &stepPromoter{mergeErr: errors.New("merge pull request #7 on hanzoai/universe: 405 At least 1 approving review is required")}
	m := stepModel(t, p, "gateway", model.PromotionOpen, "none")
	press(m, "m", "y")
	if len(p.merged) != 0 || !strings.Contains(plainView(m), "Production: type gateway to merge") {
		t.Fatalf("y on production merged %+v:\n%s", p.merged, plainView(m))
	}
	press(m, "backspace")
	typeText(m, "gateway")
	press(m, "enter")
	if len(p.merged) != 1 || p.merged[0].Typed != "gateway" {
		t.Fatalf("the typed name merged %+v", p.merged)
	}
	if v := plainView(m); !strings.Contains(v, "405 At least 1 approving review is required") {
		t.Fatalf("GitHub's refusal is not shown:\n%s", v)
	}
}

// No promotion kept on the row: m says how to start one.
func TestPromoteMergeWithoutPromotion(t *testing.T) {
	m := newPromoteModel(t, &fakePromoter{})
	typeText(m, "/explorer")
	press(m, "enter", "m")
	if v := plainView(m); !strings.Contains(v, "no promotion on this row (p opens one)") {
		t.Fatalf("m without a promotion:\n%s", v)
	}
}
