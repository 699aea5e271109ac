package query

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// Every word the board shows can be typed back into the query, and means
// the same as its long form.
func TestQueryAcceptsTheScreensWords(t *testing.T) {
	t.Parallel()
	rows := fleet(t)
	// A row with no declared tag whose release state is none: it has no
	// no-release flag, so release:none must not match it either.
	a := modeltest.BaseApp()
	a.Name, a.ImageTag = "untagged", ""
	untagged := model.Build(a, modeltest.BaseWorkload(), model.Release{State: model.ReleaseNone}, modeltest.T0)
	rows = append(rows, &untagged)
	// An offline row: its cluster's watch is down.
	off := *rows[0]
	off.App, off.Cluster, off.Offline = "iam-offline", "edge-2", true
	rows = append(rows, &off)

	same := [][2]string{
		{"flag:UR", "flag:unrolled"},
		{"flag:ur", "flag:un-rolled"},
		{"flag:FD", "flag:floating-declared"},
		{"flag:FR", "flag:floating-running"},
		{"flag:NR", "flag:no-release"},
		{"flag:ZA", "flag:zero-assets"},
		{"flag:ST", "flag:stale"},
		{"flag:FD,ST", "flag:floating-declared,stale"},
		{"sev:✖", "sev:red"},
		{"sev:▲", "sev:yellow"},
		{"sev:✓", "sev:ok"},
		{"-sev:✓", "-sev:ok"},
		{"health:?", "health:unknown"},
		{"release:none", "flag:no-release"},
		{"-release:none", "-flag:no-release"},
	}
	for _, p := range same {
		a, b := mustSelect(t, rows, p[0]), mustSelect(t, rows, p[1])
		if d := cmp.Diff(b, a); d != "" {
			t.Errorf("%q and %q differ (-%s +%s):\n%s", p[0], p[1], p[1], p[0], d)
		}
	}
	if got := mustSelect(t, rows, "release:none"); len(got) == 0 {
		t.Error("release:none matches nothing: the comparison above is vacuous")
	}
	if got := mustSelect(t, rows, "health:offline"); !cmp.Equal(got, []string{"iam-offline"}) {
		t.Errorf("health:offline = %v, want the offline row", got)
	}
	if _, err := Parse("health:stale"); err == nil {
		t.Error(`health:stale parses: "stale" must mean only the drift flag`)
	}
}

func mustSelect(t *testing.T, rows []*model.AppView, q string) []string {
	t.Helper()
	query, err := Parse(q)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return names(Select(rows, query, SortName))
}

// Every word the board or a command prints for a value, and every alias,
// parses back to that value: sev:, health:, git: and flag: through the
// query parser, sort orders through ParseSortKey, in upper case too.
func TestEveryPrintedWordParsesBack(t *testing.T) {
	t.Parallel()
	back := func(key, spelling string) []string {
		q, err := Parse(key + ":" + spelling)
		if err != nil || len(q.terms) != 1 {
			t.Errorf("%s:%s: %d terms, %v", key, spelling, len(q.terms), err)
			return nil
		}
		return q.terms[0].values
	}
	checkNames := func(key string, names []string, spellings func(i int) []string) {
		for i, name := range names {
			for _, sp := range spellings(i) {
				for _, typed := range []string{sp, strings.ToUpper(sp)} {
					if got := back(key, typed); !cmp.Equal(got, []string{name}) {
						t.Errorf("%s:%s reads as %v, want %s", key, typed, got, name)
					}
				}
			}
		}
	}
	checkNames("sev", model.MarkWords.Names(), func(i int) []string { return model.MarkWords[i].Spellings() })
	checkNames("health", model.HealthWords.Names(), func(i int) []string { return model.HealthWords[i].Spellings() })
	checkNames("git", model.GitStateWords.Names(), func(i int) []string { return model.GitStateWords[i].Spellings() })
	for _, w := range model.FlagWords {
		for _, sp := range w.Spellings() {
			q, err := Parse("flag:" + sp)
			if err != nil || len(q.terms) != 1 {
				t.Errorf("flag:%s: %v", sp, err)
				continue
			}
			if got := q.terms[0].kinds; !cmp.Equal(got, []drift.DriftKind{w.Value}) {
				t.Errorf("flag:%s reads as %v, want %s", sp, got, w.Value)
			}
		}
	}
	for _, w := range SortWords {
		for _, sp := range w.Spellings() {
			for _, typed := range []string{sp, strings.ToUpper(sp)} {
				if got, err := ParseSortKey(typed); err != nil || got != w.Value {
					t.Errorf("sort %q reads as %v (%v), want %v", typed, got, err, w.Value)
				}
			}
		}
	}
}

// SortKey indexes SortWords (String, Next).
func TestSortWordsInSortKeyOrder(t *testing.T) {
	t.Parallel()
	for i, w := range SortWords {
		if w.Value != SortKey(i) {
			t.Errorf("SortWords[%d] is %v", i, w.Value)
		}
	}
}
