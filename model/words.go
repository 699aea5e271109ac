package model

import (
	"strings"

	"github.com/hanzoai/driftboard/drift"
)

// A Word is one value as the board and the commands print it, with every
// spelling the query language takes back for it: what is on the screen can
// be typed into a filter (sev:✖, health:?, flag:UR, git:out). The printers
// and the query parser read the same tables, so they cannot drift apart.
type Word[T comparable] struct {
	Value T
	Name  string   // the query's value, and JSON's
	Board string   // what the board shows
	Text  string   // what list, get and watch's text print
	Also  []string // further spellings a query takes
}

// Spellings are every form of the word a query takes.
func (w Word[T]) Spellings() []string {
	return append([]string{w.Name, w.Board, w.Text}, w.Also...)
}

// Words is a table of words, one per value.
type Words[T comparable] []Word[T]

// Of is the word of v; a zero Word (Name "") for a value not in the table.
func (ws Words[T]) Of(v T) Word[T] {
	for _, w := range ws {
		if w.Value == v {
			return w
		}
	}
	return Word[T]{}
}

// Lookup reads any spelling of a word, ignoring case and surrounding space.
func (ws Words[T]) Lookup(s string) (Word[T], bool) {
	s = strings.TrimSpace(s)
	for _, w := range ws {
		for _, sp := range w.Spellings() {
			if strings.EqualFold(s, sp) {
				return w, true
			}
		}
	}
	return Word[T]{}, false
}

// Names are the words' names, in the table's order.
func (ws Words[T]) Names() []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Name
	}
	return out
}

// MarkWords are the verdict's marks, in Mark order (Mark indexes it): a
// colour-blind safe glyph each on the board, the word text prints (a ?
// row prints n/a), the name JSON and sev: use.
var MarkWords = Words[Mark]{
	{Value: MarkOK, Name: "ok", Board: "✓", Text: "ok"},
	{Value: MarkUnknown, Name: "unknown", Board: "?", Text: "n/a"},
	{Value: MarkYellow, Name: "yellow", Board: "▲", Text: "yellow"},
	{Value: MarkRed, Name: "red", Board: "✖", Text: "red"},
}

// HealthOffline is what HEALTH shows in place of a row's health while its
// cluster's watch is down (AppView.Offline): that health is not live. It is
// never a row's Health.
const HealthOffline Health = "offline"

// HealthWords are the HEALTH column's words; the commands print "-" where
// the board shows ? (no workload health observed).
var HealthWords = Words[Health]{
	{Value: HealthGreen, Name: "green", Board: "green", Text: "green"},
	{Value: HealthYellow, Name: "yellow", Board: "yellow", Text: "yellow"},
	{Value: HealthRed, Name: "red", Board: "red", Text: "red"},
	{Value: HealthUnknown, Name: "unknown", Board: "?", Text: "-"},
	{Value: HealthSyncing, Name: "syncing", Board: "syncing", Text: "syncing"},
	{Value: HealthOffline, Name: "offline", Board: "offline", Text: "offline"},
}

// FlagWords are the drift flags: two letters in the board's FLAGS column
// (help's legend), the design's name everywhere else.
var FlagWords = Words[drift.DriftKind]{
	{Value: drift.DriftFloatingDeclared, Name: "floating-declared", Board: "FD", Text: "floating-declared"},
	{Value: drift.DriftFloatingRunning, Name: "floating-running", Board: "FR", Text: "floating-running"},
	{Value: drift.DriftStale, Name: "stale", Board: "ST", Text: "stale"},
	{Value: drift.DriftUnrolled, Name: "un-rolled", Board: "UR", Text: "un-rolled", Also: []string{"unrolled"}},
	{Value: drift.DriftNoRelease, Name: "no-release", Board: "NR", Text: "no-release", Also: []string{"norelease"}},
	{Value: drift.DriftZeroAssets, Name: "zero-assets", Board: "ZA", Text: "zero-assets", Also: []string{"zeroassets"}},
}

// GitStateWords are the GIT column's words (three columns at most on the
// board) and the commands' git cell.
var GitStateWords = Words[GitState]{
	{Value: GitSynced, Name: "synced", Board: "ok", Text: "synced"},
	{Value: GitOutOfSync, Name: "out-of-sync", Board: "out", Text: "out-of-sync", Also: []string{"outofsync"}},
	{Value: GitNotManaged, Name: "not-managed", Board: "-", Text: "not-managed", Also: []string{"notmanaged", "unmanaged"}},
	{Value: GitUnknown, Name: "unknown", Board: "?", Text: "unknown"},
}

// PromotionStepWords are a promotion's steps: the PROMOTE column's short
// word, the commands' and JSON's name.
var PromotionStepWords = Words[PromotionStep]{
	{Value: PromotionOpen, Name: "pr-open", Board: "PR open", Text: "pr-open", Also: []string{"open"}},
	{Value: PromotionMerged, Name: "merged", Board: "merged", Text: "merged"},
	{Value: PromotionSynced, Name: "synced", Board: "synced", Text: "synced"},
	{Value: PromotionDeclared, Name: "declared", Board: "declared", Text: "declared"},
	{Value: PromotionRolling, Name: "rolling", Board: "rolling", Text: "rolling"},
	{Value: PromotionRunning, Name: "running", Board: "running", Text: "running"},
	{Value: PromotionLive, Name: "live", Board: "live", Text: "live"},
	{Value: PromotionClosed, Name: "pr-closed", Board: "PR closed", Text: "pr-closed", Also: []string{"closed"}},
	{Value: PromotionChecksFailed, Name: "checks-failed", Board: "checks ✖", Text: "checks-failed"},
	{Value: PromotionSyncFailed, Name: "sync-failed", Board: "sync ✖", Text: "sync-failed"},
	{Value: PromotionRolloutFailed, Name: "rollout-failed", Board: "rollout ✖", Text: "rollout-failed"},
}
