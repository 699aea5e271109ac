package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
)

// fakePromoter plans with the model's own target rule over the fixture's
// rows, records what was proposed, and answers each Follow with the next
// of steps.
type fakePromoter struct {
	NoPromotions
	src      *storeSource
	mu       sync.Mutex
	proposed []promote.Confirmation
	steps    []model.PromotionStep
	inFlight map[model.Key]model.Promotion
	failNext error // the next Follow's answer
}

func (f *fakePromoter) PlanPromotion(_ context.Context, key model.Key, to string) (promote.Planned, error) {
	r := f.src.Snapshot().Find(key)
	target, why := model.PromotionTarget(r, nil, to)
	if why != "" {
		return promote.Planned{}, &promote.Refused{Reason: why}
	}
	return promote.Planned{PromotionPlan: model.PromotionPlan{Key: key, Env: r.Env, From: r.DeclaredTag, To: target.Tag,
		Repo: "hanzoai/universe", Base: "main", Path: "crs/" + r.App + ".yaml", Line: 9,
		Before: "    tag: " + r.DeclaredTag, After: "    tag: " + target.Tag, Branch: model.PromotionBranch(r.Env, r.App, target.Tag),
		Title: model.PromotionTitle(r, target.Tag), Login: "octo", MustType: r.Env.IsProduction()}}, nil
}

func (f *fakePromoter) ProposePromotion(_ context.Context, p promote.Planned, c promote.Confirmation) (model.Promotion, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.proposed = append(f.proposed, c)
	return model.Promotion{Key: p.Key, To: p.To, PR: 7, URL: "https://github.com/hanzoai/universe/pull/7\u202e", Step: model.PromotionOpen,
		Steps: []model.StepAt{{Step: model.PromotionOpen, At: t0}}}, nil
}

func (f *fakePromoter) FollowPromotion(_ context.Context, p model.Promotion) (model.Promotion, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.failNext; err != nil {
		f.failNext = nil
		return model.Promotion{}, err
	}
	if len(f.steps) > 0 {
		p.Step, f.steps = f.steps[0], f.steps[1:]
		p.Steps = append(p.Steps, model.StepAt{Step: p.Step, At: t0.Add(time.Duration(len(p.Steps)) * time.Minute)})
		if p.Step == model.PromotionLive {
			p.LeadTime = 4 * time.Minute
		}
	}
	return p, nil
}

func (f *fakePromoter) PromotionsInFlight(context.Context) (map[model.Key]model.Promotion, error) {
	return f.inFlight, nil
}

// newPromoteModel is newTestModel's board with promotions through p.
func newPromoteModel(t *testing.T, p *fakePromoter) *Model {
	t.Helper()
	m, src := newTestModel(t, nil, orgAdmin(), Options{}, 160, 30)
	p.src = src
	m.fleet = testFleet{src, noFleet{}, restart.New(noFleet{}, restart.Policy{}), p}
	return m
}

func promoteCol(t *testing.T, m *Model, app string) string {
	t.Helper()
	lines := strings.Split(plainView(m), "\n")
	for i, l := range lines {
		if c := strings.Index(l, "PROMOTE"); c >= 0 {
			col := len([]rune(l[:c]))
			rest := l[c+len("PROMOTE"):]
			width := len("PROMOTE") + len(rest) - len(strings.TrimLeft(rest, " ")) - 1 // to the next title
			for _, r := range lines[i+1:] {
				if f := strings.Fields(r); len(f) > 3 && strings.Contains(r, " "+app+" ") {
					return strings.TrimSpace(string([]rune(r)[col : col+width]))
				}
			}
		}
	}
	return ""
}

// p on a row: the plan, y, the pull request's address on the status line
// (sanitised), the row's PROMOTE column from its state, read again on the
// poll until live.
func TestPromoteFromTheBoard(t *testing.T) {
	p := &fakePromoter{steps: []model.PromotionStep{model.PromotionMerged, model.PromotionLive}}
	m := newPromoteModel(t, p)
	typeText(m, "/explorer")
	press(m, "enter", "p")
	v := plainView(m)
	if !strings.Contains(v, "Promote hanzo-testnet/explorer?") || !strings.Contains(v, "v0.9.0 → v1.0.0") || !strings.Contains(v, "+9:     tag: v1.0.0") {
		t.Fatalf("p does not show the plan:\n%s", v)
	}
	press(m, "y")
	v = plainView(m)
	if len(p.proposed) != 1 || !p.proposed[0].Yes {
		t.Fatalf("y proposed %+v", p.proposed)
	}
	if !strings.Contains(v, "pull request #7 opened: https://github.com/hanzoai/universe/pull/7") || strings.Contains(v, "\u202e") {
		t.Fatalf("the status line does not give the pull request (sanitised):\n%s", v)
	}
	if got := promoteCol(t, m, "explorer"); got != "PR open" {
		t.Fatalf("PROMOTE of explorer = %q:\n%s", got, v)
	}
	for _, want := range []string{"merged", "live"} {
		_, cmd := m.Update(promotePollMsg{})
		feedBack(m, cmd, time.Second, func(msg tea.Msg) bool { _, ok := msg.(promotionsMsg); return ok })
		if got := promoteCol(t, m, "explorer"); got != want {
			t.Fatalf("after a poll PROMOTE of explorer = %q, want %q:\n%s", got, want, plainView(m))
		}
	}
	if m.promoteFollowing {
		t.Error("a live promotion is still polled")
	}
	press(m, "enter")
	v = plainView(m)
	for _, want := range []string{"Promotion", "#7 https://github.com/hanzoai/universe/pull/7", "state           live", "pr-open", "merged", "lead time       4m"} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail does not say %q:\n%s", want, v)
		}
	}
}

// Without a forge the dialog says promotions are not available and why;
// nothing is proposed.
func TestPromoteNotAvailable(t *testing.T) {
	m, _ := newTestModel(t, nil, orgAdmin(), Options{}, 160, 30)
	press(m, "p")
	if v := plainView(m); !strings.Contains(v, "refused: promotions: not available from this source") || !strings.Contains(v, "nothing was written") {
		t.Fatalf("p without a forge:\n%s", v)
	}
}

// Production: y is not an answer; the App's name typed is.
func TestPromoteProductionTyped(t *testing.T) {
	p := &fakePromoter{}
	m := newPromoteModel(t, p)
	typeText(m, "/gateway")
	press(m, "enter")
	m.board.Selected().LatestTag = "v5.1.0" // the fixture's gateway has no newer release
	press(m, "p", "y")
	if len(p.proposed) != 0 || !strings.Contains(plainView(m), "Production: type gateway") {
		t.Fatalf("y on production proposed %+v:\n%s", p.proposed, plainView(m))
	}
	press(m, "backspace") // the y went into the name
	typeText(m, "gateway")
	press(m, "enter")
	if len(p.proposed) != 1 || p.proposed[0].Typed != "gateway" {
		t.Fatalf("the typed name proposed %+v", p.proposed)
	}
}

// The promotions in flight are found again when the board starts.
func TestPromotionsFoundAgainAtStart(t *testing.T) {
	k := model.Key{Cluster: "prod", Namespace: "hanzo", Name: "kms"}
	p := &fakePromoter{inFlight: map[model.Key]model.Promotion{k: {Key: k, To: "v2.0.1", PR: 3, Step: model.PromotionMerged,
		Steps: []model.StepAt{{Step: model.PromotionOpen, At: t0.Add(-time.Hour)}, {Step: model.PromotionMerged, At: t0.Add(-12 * time.Minute)}},
		Late:  "CD not synced after merge for 12m"}}}
	m := newPromoteModel(t, p)
	feedBack(m, m.Init(), time.Second, func(msg tea.Msg) bool { _, ok := msg.(promotionsMsg); return ok })
	if got := promoteCol(t, m, "kms"); got != "! merged" {
		t.Fatalf("PROMOTE of kms = %q:\n%s", got, plainView(m))
	}
	typeText(m, "/kms")
	press(m, "enter", "enter")
	if v := plainView(m); !strings.Contains(v, "over budget: CD not synced after merge for 12m") || !strings.Contains(v, "merged        13:48:00 (12m ago)") {
		t.Fatalf("the detail of a late promotion:\n%s", v)
	}
}
