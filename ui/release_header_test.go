package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// The header says when release checks are off, run anonymous, or are
// starved (the rate budget stretched the refresh), and says nothing of them
// when they run with a token at their pace.
func TestHeaderSaysHowReleaseChecksRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rc        model.ReleaseChecks
		want, not []string
	}{
		{"off", model.ReleaseChecks{Off: true, Remaining: -1}, []string{"release checks off"}, []string{"anonymous", "re-read"}},
		{"anonymous and starved", model.ReleaseChecks{Anonymous: true, Remaining: 12, Limit: 60, RefreshSeconds: 3600, Starved: true},
			[]string{"GitHub anonymous (60/h)", "releases re-read every 60m (rate budget)"}, []string{"checks off"}},
		{"token, starved", model.ReleaseChecks{Remaining: 40, Limit: 5000, RefreshSeconds: 900, Starved: true},
			[]string{"releases re-read every 15m (rate budget)"}, []string{"anonymous", "checks off"}},
		{"token at pace", model.ReleaseChecks{Remaining: 4990, Limit: 5000, RefreshSeconds: 600},
			nil, []string{"anonymous", "re-read", "checks off", "rate-limited"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 160, 24)
			src.upsert(app{ns: "hanzo", name: "iam", declared: "v1.4.0", running: "v1.4.0", latest: "v1.4.0", ready: 1, updated: 1, replicas: 1, assets: 1}.build())
			src.SetReleaseChecks(tc.rc)
			m.Update(snapshotMsg{src.Snapshot()})
			view := plainView(m)
			head := strings.Join(strings.SplitN(view, "\n", 4)[:3], "\n")
			for _, w := range tc.want {
				if !strings.Contains(head, w) {
					t.Errorf("header lacks %q:\n%s", w, head)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(head, w) {
					t.Errorf("header says %q:\n%s", w, head)
				}
			}
		})
	}
}

// The detail of a stale row says since when: the latest release's
// publication, on the drifting line and in the stale message; unknown is "?".
func TestDetailSaysStaleSinceThePublication(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 120, 40)
	src.upsert(
		app{ns: "hanzo", name: "iam", declared: "v1.4.0", running: "v1.4.0", latest: "v1.5.0", published: t0.Add(-50 * time.Hour),
			ready: 2, updated: 2, assets: 1}.build(),
		app{ns: "hanzo", name: "kms", declared: "v0.9.0", running: "v0.9.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build(),
	)
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "iam")
	press(m, "enter")
	detail := plainView(m)
	for _, want := range []string{"drifting        since Nov 28 12:00 (2d2h)", "v1.5.0 was published Nov 28 12:00 (2d2h ago)."} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}
	press(m, "esc")
	selectApp(t, m, "kms")
	press(m, "enter")
	if detail := plainView(m); !strings.Contains(detail, "drifting        since ?") || strings.Contains(detail, "was published") {
		t.Errorf("stale with an unknown publication:\n%s", detail)
	}
}
