package ui

import (
	"strings"
	"testing"
)

// /iam on the demo's look-alikes (red and yellow charts whose IDs hold
// i…a…m, sorted first by severity) puts iam itself first, then the names
// that start with iam, as fzf does; ? help says so.
func TestFilterRanksExactNameFirst(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 120, 30)
	src.upsert(
		app{ns: "hanzo", name: "api-chart", declared: "v0.2.2", running: "v0.2.1", latest: "v0.2.2", ready: 1, updated: 0, assets: 1}.build(),
		app{ns: "hanzo", name: "analytics-chart", declared: "latest", running: "latest", latest: "v1.0.0", ready: 1, updated: 1, assets: 1}.build(),
		app{ns: "hanzo", name: "billing-chart", declared: "v1.0.0", running: "v1.0.0", latest: "v1.1.0", ready: 1, updated: 1, assets: 1}.build(),
		app{ns: "hanzo", name: "iam-proxy", declared: "latest", running: "latest", latest: "v1.0.0", ready: 1, updated: 1, assets: 1}.build(),
	)
	m.Update(snapshotMsg{src.Snapshot()})
	typeText(m, "/iam")
	var apps []string
	for _, l := range strings.Split(plainView(m), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "›"))
		if len(f) > 2 && (f[1] == "red" || f[1] == "yellow" || f[1] == "ok" || f[1] == "n/a") {
			apps = append(apps, f[2])
		}
	}
	if len(apps) < 3 || apps[0] != "iam" || apps[1] != "iam-proxy" {
		t.Errorf("/iam shows %v, want iam, then iam-proxy, then the rest:\n%s", apps, plainView(m))
	}
	press(m, "esc", "?", "pgdown") // the legend is under the keys
	if v := plainView(m); !strings.Contains(v, "exact name first, then prefix") {
		t.Errorf("help does not say how free text ranks:\n%s", v)
	}
}
