package changestream

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// A row's promotion is part of its verdict once promotions are read: none,
// unknown with why, or the step of the model.Promotion list and get show; a
// step change is an event (text and JSON), a late promotion's growing age
// is not.
func TestPromotionStepChangesAreEvents(t *testing.T) {
	t.Parallel()
	live := map[string]model.ConnPhase{"a": model.ConnLive}
	iam := row("a", "hanzo", "iam", "v1", "v1", drift.SeverityOK)
	s := snap(1, live, iam)
	k := iam.Key()
	tr := NewTracker(query.Query{}, false)
	tr.SetPromotions(Promotions{Why: "no GitHub token"})
	evs := tr.Observe(s, t0)
	if text := render(t, evs[0]); !strings.Contains(text, "promotion unknown (no GitHub token)") {
		t.Errorf("current without a token: %s", text)
	}
	step := func(st model.PromotionStep, late string) Promotions {
		return Promotions{Found: map[model.Key]model.Promotion{k: {Key: k, To: "v2", PR: 7, URL: "https://github.com/hanzoai/universe/pull/7", Step: st, Late: late}}}
	}
	for _, c := range []struct {
		p    Promotions
		want string // "" for no event
	}{
		{Promotions{}, "promotion unknown (no GitHub token) → none"},
		{step(model.PromotionOpen, ""), "promotion none → pr-open to v2 #7"},
		{step(model.PromotionOpen, "PR waiting for review for 25h"), "promotion pr-open to v2 #7 → pr-open to v2 #7, late: PR waiting for review for 25h"},
		{step(model.PromotionOpen, "PR waiting for review for 26h"), ""},
		{step(model.PromotionMerged, ""), "promotion pr-open to v2 #7, late: PR waiting for review for 26h → merged to v2 #7"},
		{Promotions{Unknown: map[model.Key]string{k: "list open pull requests on hanzoai/universe: 502"}}, "promotion merged to v2 #7 → unknown (list open pull requests on hanzoai/universe: 502)"},
	} {
		tr.SetPromotions(c.p)
		evs := tr.Observe(s, t0)
		if c.want == "" {
			if len(evs) != 0 {
				t.Errorf("%+v: want no event, got %v", c.p, brief(evs))
			}
			continue
		}
		if len(evs) != 1 || evs[0].Event != KindChanged {
			t.Fatalf("%+v: want one changed event, got %v", c.p, brief(evs))
		}
		if text := render(t, evs[0]); !strings.HasSuffix(strings.TrimSpace(text), c.want) {
			t.Errorf("text %q, want it to end %q", text, c.want)
		}
	}
	var b bytes.Buffer
	tr.SetPromotions(step(model.PromotionSynced, ""))
	if err := WriteJSON(&b, tr.Observe(s, t0)[0]); err != nil {
		t.Fatal(err)
	}
	if want := `"promotion":{"step":"synced","to":"v2","pr":7,"url":"https://github.com/hanzoai/universe/pull/7"}`; !strings.Contains(b.String(), want) ||
		!strings.Contains(b.String(), `"changed":["promotion"]`) {
		t.Errorf("jsonl %s lacks %s", b.String(), want)
	}
}

func render(t *testing.T, ev Event) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, ev); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A pull request moves without the fleet changing: the stream reads the
// promotions again every PromotionPoll and reports the step.
func TestStreamPollsPromotions(t *testing.T) {
	t.Parallel()
	live := map[string]model.ConnPhase{"a": model.ConnLive}
	iam := row("a", "hanzo", "iam", "v1", "v1", drift.SeverityOK)
	src := fixedSource{snap(1, live, iam)}
	var mu sync.Mutex
	reads := 0
	read := func(_ context.Context, rows []*model.AppView) Promotions {
		mu.Lock()
		defer mu.Unlock()
		reads++
		if reads < 3 || len(rows) != 1 {
			return Promotions{}
		}
		return Promotions{Found: map[model.Key]model.Promotion{iam.Key(): {To: "v2", PR: 1, Step: model.PromotionMerged}}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []Event
	err := Stream(ctx, src, src.s, Options{Promotions: read, PromotionPoll: 10 * time.Millisecond, Now: func() time.Time { return t0 }}, func(ev Event) error {
		got = append(got, ev)
		if ev.Event == KindChanged {
			cancel()
		}
		return nil
	})
	if err != nil || len(got) != 3 || got[2].After.(*Verdict).Promotion.Step != "merged" {
		t.Fatalf("err %v, events %v", err, brief(got))
	}
}

type fixedSource struct{ s *store.Snapshot }

func (f fixedSource) Snapshot() *store.Snapshot { return f.s }
func (f fixedSource) Changed() <-chan struct{}  { return nil }
