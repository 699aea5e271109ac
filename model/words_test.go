package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/drift"
)

// Every value the outputs print has a word, and no spelling names two
// values, whatever the case: a query could not tell them apart.
func TestWordTablesCoverAndNeverOverlap(t *testing.T) {
	t.Parallel()
	for _, k := range drift.Kinds {
		if FlagWords.Of(k).Name != string(k) {
			t.Errorf("flag %s: word %+v", k, FlagWords.Of(k))
		}
	}
	for _, h := range []Health{HealthGreen, HealthYellow, HealthRed, HealthUnknown, HealthSyncing, HealthOffline} {
		if HealthWords.Of(h).Name == "" {
			t.Errorf("health %q has no word", h)
		}
	}
	for _, g := range []GitState{GitSynced, GitOutOfSync, GitNotManaged, GitUnknown} {
		if GitStateWords.Of(g).Name != string(g) {
			t.Errorf("git state %q: word %+v", g, GitStateWords.Of(g))
		}
	}
	for i, w := range MarkWords {
		if w.Value != Mark(i) {
			t.Errorf("MarkWords[%d] is the word of %v: Mark indexes the table", i, w.Value)
		}
	}
	overlap(t, "mark", MarkWords)
	overlap(t, "health", HealthWords)
	overlap(t, "flag", FlagWords)
	overlap(t, "git", GitStateWords)
	for _, s := range append(slices.Clone(promotionOrder), PromotionClosed, PromotionChecksFailed, PromotionSyncFailed, PromotionRolloutFailed) {
		if PromotionStepWords.Of(s).Name != string(s) {
			t.Errorf("promotion step %q: word %+v", s, PromotionStepWords.Of(s))
		}
	}
	overlap(t, "promotion", PromotionStepWords)
}

func overlap[T comparable](t *testing.T, table string, ws Words[T]) {
	t.Helper()
	seen := map[string]T{}
	for _, w := range ws {
		for _, sp := range w.Spellings() {
			key := strings.ToLower(sp)
			if sp == "" {
				t.Errorf("%s %v: an empty spelling", table, w.Value)
			}
			if other, ok := seen[key]; ok && other != w.Value {
				t.Errorf("%s: %q names both %v and %v", table, sp, other, w.Value)
			}
			seen[key] = w.Value
		}
	}
}
