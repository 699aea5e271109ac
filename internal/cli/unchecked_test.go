package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// list says on stderr how release checks ran when that is not the whole
// truth: off, anonymous, rate-limited or starved, with or without rows
// waiting on them.
func TestListSaysHowReleaseChecksRan(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.Local)
	checked := &model.AppView{DeclaredTag: "v1.0.0", Release: model.Release{State: model.ReleaseFound}}
	waiting := &model.AppView{DeclaredTag: "v1.0.0", Release: model.Release{State: model.ReleaseRateLimited}}
	for _, tc := range []struct {
		name      string
		rows      []*model.AppView
		rc        model.ReleaseChecks
		wantN     int
		want, not []string
	}{
		{"off", []*model.AppView{{DeclaredTag: "v1", Release: model.Release{State: model.ReleaseOff}}}, model.ReleaseChecks{Off: true}, 1,
			[]string{"notice: release checks are off"}, []string{"anonymous", "incomplete"}},
		{"anonymous, all read", []*model.AppView{checked}, model.ReleaseChecks{Anonymous: true}, 0,
			[]string{"notice: GitHub release checks run anonymous (60 requests/hour)"}, []string{"incomplete", "starved"}},
		{"anonymous and starved", []*model.AppView{checked}, model.ReleaseChecks{Anonymous: true, Starved: true, RefreshSeconds: 3600}, 0,
			[]string{"run anonymous", "only every 1h0m0s (starved)"}, []string{"incomplete"}},
		{"rate-limited, one waits", []*model.AppView{checked, waiting}, model.ReleaseChecks{Anonymous: true, Starved: true, LimitedUntil: now.Add(5 * time.Minute)}, 1,
			[]string{"1 of 2 rows wait on release checks (1 rate-limited)", "Warning: GitHub rate-limited until 14:05"}, []string{"anonymous", "starved"}},
		{"token at pace", []*model.AppView{checked}, model.ReleaseChecks{RefreshSeconds: 600}, 0, nil, []string{"notice", "warning"}},
		{"failing", []*model.AppView{checked, {DeclaredTag: "v1", Release: model.Release{State: model.ReleaseError}}},
			model.ReleaseChecks{Failing: "GitHub: dial tcp: lookup api.github.com: no such host\x1b[2J", FailingChecks: 3, NextTry: now.Add(time.Minute)}, 1,
			[]string{"1 of 2 rows wait on release checks (1 error)", "Warning: release checks failing: GitHub: dial tcp: lookup api.github.com: no such host",
				"(3 checks, next try 14:01)"}, []string{"\x1b[2J"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			n := warnUncheckedReleases(&buf, tc.rows, tc.rc, now)
			if n != tc.wantN {
				t.Errorf("%d rows wait, want %d", n, tc.wantN)
			}
			for _, w := range tc.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, buf.String())
				}
			}
			for _, w := range tc.not {
				if strings.Contains(buf.String(), w) {
					t.Errorf("stderr says %q:\n%s", w, buf.String())
				}
			}
		})
	}
}

// get says "none" under Drift only when every flag was decided; with the
// release unread or checks off the release flags are said to be unchecked.
func TestGetDriftNoneOnlyWhenChecked(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		state     model.ReleaseState
		want, not string
	}{
		{model.ReleaseFound, "\n  none\n", "not checked"},
		{model.ReleaseOff, "none found; no-release, zero-assets and stale not checked (release off)", "\n  none\n"},
		{model.ReleasePending, "not checked (release pending)", "\n  none\n"},
	} {
		r := &model.AppView{App: "iam", Namespace: "hanzo", DeclaredTag: "v1.0.0", RunningTag: "v1.0.0", Release: model.Release{State: c.state}}
		r.Workload.Found = true
		var b bytes.Buffer
		if err := writeDetail(&b, r, now); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		out := strings.Join(lines, "\n")
		if !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("release %s: want %q, not %q:\n%s", c.state, c.want, c.not, b.String())
		}
	}
}
